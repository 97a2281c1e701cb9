"""Route tables for journeys: least-weight next hops toward every hex (Z-35, Z-39)."""

import heapq

import numpy as np
from numba import njit

UNREACHED = 1 << 60


@njit(cache=True)
def next_hops(neighbours, weight):
    """``(next_hop, dist)``: ``dist[g, h]`` the least total weight of the hexes
    entered on a way from ``h`` to ``g``, where entering hex ``n`` weighs
    ``weight[n]``; ``next_hop[g, h]`` the neighbour of ``h`` to enter on such a
    way (-1 at ``g``), the first in ``neighbours`` order on ties. Dijkstra from every goal."""
    n_hex = neighbours.shape[0]
    hop = np.full((n_hex, n_hex), -1, np.int64)
    all_dist = np.empty((n_hex, n_hex), np.int64)
    for goal in range(n_hex):
        dist = all_dist[goal]
        dist[:] = UNREACHED
        dist[goal] = 0
        heap = [(np.int64(0), np.int64(goal))]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for k in range(neighbours.shape[1]):
                v = neighbours[u, k]
                if v >= 0 and d + weight[u] < dist[v]:
                    dist[v] = d + weight[u]
                    heapq.heappush(heap, (dist[v], v))
        for h in range(n_hex):
            if h == goal:
                continue
            best = UNREACHED
            for k in range(neighbours.shape[1]):
                n = neighbours[h, k]
                if n >= 0 and dist[n] < UNREACHED and weight[n] + dist[n] < best:
                    best = weight[n] + dist[n]
                    hop[goal, h] = n
    return hop, all_dist
