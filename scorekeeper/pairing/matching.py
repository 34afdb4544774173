"""Maximum matching on a general graph, without weights: which players can
all be paired within the allowed pairs (those who have not met). Used by
Swiss pairing (swiss.py) to tell quickly whether a group can be paired at
all, where networkx's weighted matching is far too slow (1,000 players:
seconds). Pure Python, checked against networkx on random graphs
(tests/pairing/test_swiss_big.py)."""

from __future__ import annotations

from collections import deque


def greedy_matching(ms: list[int], pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A large matching, quickly: the players with the fewest choices first,
    each to their partner with the fewest choices, then augmenting paths
    (searched without blossoms, so it can fall short of the maximum, never
    wrong)."""
    adj: dict[int, list[int]] = {i: [] for i in ms}
    for i, j in pairs:
        if i in adj and j in adj:
            adj[i].append(j)
            adj[j].append(i)
    mate: dict[int, int] = {}
    for i in sorted(ms, key=lambda k: (len(adj[k]), k)):
        if i in mate:
            continue
        free = [j for j in adj[i] if j not in mate]
        if free:
            j = min(free, key=lambda k: (len(adj[k]), k))
            mate[i], mate[j] = j, i
    for root in ms:
        if root in mate:
            continue
        seen = {root}
        came_from: dict[int, int | None] = {root: None}  # outer player -> the matched one it came through
        before: dict[int, int] = {}  # matched player -> the outer player it was reached from
        queue = deque([root])
        while queue:
            u = queue.popleft()
            hit = None
            for v in adj[u]:
                if v in seen:
                    continue
                seen.add(v)
                if v not in mate:
                    hit = v
                    break
                w = mate[v]
                if w in seen:
                    continue
                seen.add(w)
                before[v] = u
                came_from[w] = v
                queue.append(w)
            if hit is not None:
                v = hit
                while True:
                    back = came_from[u]
                    mate[u], mate[v] = v, u
                    if back is None:
                        break
                    v, u = back, before[back]
                break
    return sorted({(min(i, j), max(i, j)) for i, j in mate.items()})


def perfect_matching(
    members: list[int], pairs: list[tuple[int, int]], exclude: int | None = None
) -> list[tuple[int, int]] | None:
    """A perfect matching of ``members`` minus ``exclude`` within ``pairs``,
    or None if there is none: the greedy matching, completed by Edmonds'
    augmenting paths (``_augment``). No weights: quick even where the
    weighted matching is not."""
    ms = [i for i in members if i != exclude]
    if len(ms) % 2:
        return None
    quick = greedy_matching(ms, pairs)
    if 2 * len(quick) == len(ms):
        return quick
    full = _augment(ms, pairs, quick)
    return full if 2 * len(full) == len(ms) else None


def _augment(ms: list[int], pairs: list[tuple[int, int]], start: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A maximum matching of ``ms`` within ``pairs``, from the matching
    ``start``: Edmonds' blossom algorithm for the cardinality (a search for
    an augmenting path from each unmatched player, odd cycles shrunk to
    their base). A player from whom no augmenting path leads never gets one
    later, so each is searched from at most once."""
    index = {p: k for k, p in enumerate(ms)}
    n = len(ms)
    adj: list[list[int]] = [[] for _ in range(n)]
    for i, j in pairs:
        a, b = index.get(i), index.get(j)
        if a is not None and b is not None:
            adj[a].append(b)
            adj[b].append(a)
    match = [-1] * n
    for i, j in start:
        match[index[i]], match[index[j]] = index[j], index[i]

    def find_path(root: int) -> bool:
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    cur = lca(v, to)
                    blossom = [False] * n
                    mark(v, cur, to, blossom)
                    mark(to, cur, v, blossom)
                    for k in range(n):
                        if blossom[base[k]]:
                            base[k] = cur
                            if not used[k]:
                                used[k] = True
                                queue.append(k)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        # flip the path root .. to
                        while to != -1:
                            pv = parent[to]
                            nxt = match[pv]
                            match[to], match[pv] = pv, to
                            to = nxt
                        return True
                    used[match[to]] = True
                    queue.append(match[to])
        return False

    for v in range(n):
        if match[v] == -1:
            find_path(v)
    return sorted((ms[a], ms[b]) for a, b in enumerate(match) if a < b)
