"""The one error every service raises for a request it cannot carry out."""


class ServiceError(Exception):
    """``message`` is for the player, in plain words. ``code`` tells the
    view how to answer: "invalid" (a rule or a field: 422), "conflict" (the
    page was out of date: 409), "closed" (the match or table is over: 409),
    "state" (a tournament is not at that step: 409), or the name of the
    form field at fault."""

    def __init__(self, message: str, *, code: str = "invalid"):
        super().__init__(message)
        self.message = message
        self.code = code
