"""Number of islands on a character grid: a recursive flood fill deeper than the recursion limit on a
300 x 300 grid of land, a corner-counting sample that passes every example, diagonal and wrap-around
neighbours, a '1' compared with the integer 1, a scan that stops on a sunk cell."""

from __future__ import annotations

import random

from messy_spec import (
    CORRECT,
    HANGING,
    NEAR_DUP,
    NO_COMPILE,
    RAISES,
    RAMBLING,
    SLOW,
    WRONG,
    Example,
    Input,
    Sol,
    Spec,
    code,
)


def snake(rng: random.Random) -> Input:
    """A 300 x 300 serpentine island: full rows joined by one cell at alternating ends."""
    grid = []
    for r in range(300):
        if r % 2 == 0:
            grid.append(["1"] * 300)
        else:
            row = ["0"] * 300
            row[299 if r % 4 == 1 else 0] = "1"
            grid.append(row)
    return [grid]


def small(rng: random.Random) -> Input:
    m, n = rng.randint(1, 8), rng.randint(1, 8)
    p = rng.choice([0.2, 0.45, 0.6, 0.8])
    return [[["1" if rng.random() < p else "0" for _ in range(n)] for _ in range(m)]]


STACK = """
class Solution:
    def numIslands(self, grid: List[List[str]]) -> int:
        rows, cols = len(grid), len(grid[0])
        count = 0
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] != "1":
                    continue
                count += 1
                grid[r][c] = "0"
                stack = [(r, c)]
                while stack:
                    i, j = stack.pop()
                    for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        a, b = i + di, j + dj
                        if 0 <= a < rows and 0 <= b < cols and grid[a][b] == "1":
                            grid[a][b] = "0"
                            stack.append((a, b))
        return count
"""

SPEC = Spec(
    slug="island-count",
    qid=9512,
    title="Island Count",
    difficulty="Medium",
    tags=[
        ("Array", "array"),
        ("Depth-First Search", "depth-first-search"),
        ("Breadth-First Search", "breadth-first-search"),
        ("Union Find", "union-find"),
        ("Matrix", "matrix"),
    ],
    method="numIslands",
    params=[("grid", "character[][]")],
    returns="integer",
    description="""
<p>The <code>m x n</code> grid <code>grid</code> is a map: <code>'1'</code> is land and <code>'0'</code> is water. Land cells that touch <strong>horizontally or vertically</strong> belong to the same island (touching at a corner does not count), and everything outside the grid is water.</p>

<p>Return <em>the number of islands</em>.</p>
""",
    examples=[
        Example(
            [[["1", "1", "0", "0"], ["0", "1", "0", "1"], ["1", "0", "0", "1"]]],
            3,
            "The bottom-left cell touches the first island only at a corner.",
        ),
        Example([[["0", "0"], ["0", "0"]]], 0),
        Example([[["1", "1", "1"], ["1", "0", "1"], ["1", "1", "1"]]], 1),
    ],
    constraints=[
        "<code>m == grid.length</code>",
        "<code>n == grid[i].length</code>",
        "<code>1 &lt;= m, n &lt;= 300</code>",
        "<code>grid[i][j]</code> is <code>'0'</code> or <code>'1'</code>.",
    ],
    reference=code("""
        class Solution:
            def numIslands(self, grid: List[List[str]]) -> int:
                m, n = len(grid), len(grid[0])
                parent = list(range(m * n))

                def find(x):
                    while parent[x] != x:
                        parent[x] = parent[parent[x]]
                        x = parent[x]
                    return x

                land = 0
                for r in range(m):
                    for c in range(n):
                        if grid[r][c] == "1":
                            land += 1
                            for rr, cc in ((r - 1, c), (r, c - 1)):
                                if rr >= 0 and cc >= 0 and grid[rr][cc] == "1":
                                    a, b = find(r * n + c), find(rr * n + cc)
                                    if a != b:
                                        parent[a] = b
                                        land -= 1
                return land
    """),
    small=small,
    big={
        "land": ("a 300 x 300 grid of land", lambda rng: [[["1"] * 300 for _ in range(300)]]),
        "snake": ("a 300 x 300 serpentine island (full rows joined at alternating ends)", snake),
        "noise": (
            "a 300 x 300 grid, each cell land with probability 0.5",
            lambda rng: [[[rng.choice("01") for _ in range(300)] for _ in range(300)]],
        ),
    },
    solutions=[
        Sol(
            CORRECT,
            "f",
            "iterative flood fill with a stack, sinking visited land",
            code(STACK),
            key="stack",
        ),
        Sol(
            CORRECT,
            "g",
            "breadth-first search with a visited set",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    m, n = len(grid), len(grid[0])
                    seen = set()
                    islands = 0
                    for r in range(m):
                        for c in range(n):
                            if grid[r][c] == "1" and (r, c) not in seen:
                                islands += 1
                                seen.add((r, c))
                                q = deque([(r, c)])
                                while q:
                                    x, y = q.popleft()
                                    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                                        if 0 <= nx < m and 0 <= ny < n and grid[nx][ny] == "1" and (nx, ny) not in seen:
                                            seen.add((nx, ny))
                                            q.append((nx, ny))
                    return islands
        """),
        ),
        Sol(
            CORRECT,
            "a",
            "union-find over the land cells",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    rows, cols = len(grid), len(grid[0])
                    parent = {}

                    def find(x):
                        root = x
                        while parent[root] != root:
                            root = parent[root]
                        while parent[x] != root:
                            parent[x], x = root, parent[x]
                        return root

                    for r in range(rows):
                        for c in range(cols):
                            if grid[r][c] == "1":
                                parent[(r, c)] = (r, c)
                    for r in range(rows):
                        for c in range(cols):
                            if grid[r][c] != "1":
                                continue
                            for nr, nc in ((r + 1, c), (r, c + 1)):
                                if nr < rows and nc < cols and grid[nr][nc] == "1":
                                    parent[find((r, c))] = find((nr, nc))
                    return sum(1 for cell in parent if find(cell) == cell)
        """),
        ),
        Sol(
            RAISES,
            "b",
            "recursive flood fill",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    def sink(r, c):
                        if r < 0 or c < 0 or r >= len(grid) or c >= len(grid[0]) or grid[r][c] != "1":
                            return
                        grid[r][c] = "0"
                        sink(r + 1, c)
                        sink(r - 1, c)
                        sink(r, c + 1)
                        sink(r, c - 1)

                    count = 0
                    for r in range(len(grid)):
                        for c in range(len(grid[0])):
                            if grid[r][c] == "1":
                                count += 1
                                sink(r, c)
                    return count
        """),
            witness_big="land",
            error="RecursionError",
            why="on a large island the recursion goes deeper than the limit of 10^4 frames",
        ),
        Sol(
            WRONG,
            "c",
            "flood fill that also steps diagonally",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    m, n = len(grid), len(grid[0])
                    count = 0
                    for i in range(m):
                        for j in range(n):
                            if grid[i][j] == "1":
                                count += 1
                                grid[i][j] = "0"
                                todo = [(i, j)]
                                while todo:
                                    x, y = todo.pop()
                                    for dx in (-1, 0, 1):
                                        for dy in (-1, 0, 1):
                                            a, b = x + dx, y + dy
                                            if 0 <= a < m and 0 <= b < n and grid[a][b] == "1":
                                                grid[a][b] = "0"
                                                todo.append((a, b))
                    return count
        """),
            witness=[[["1", "0"], ["0", "1"]]],
            expected=2,
            got=1,
            fails_examples=True,
            why="cells touching at a corner are joined",
        ),
        Sol(
            WRONG,
            "d",
            "counts the land cells with water above and to the left",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    # every island has exactly one top-left cell
                    count = 0
                    for r, row in enumerate(grid):
                        for c, cell in enumerate(row):
                            if cell != "1":
                                continue
                            up = r > 0 and grid[r - 1][c] == "1"
                            left = c > 0 and row[c - 1] == "1"
                            if not up and not left:
                                count += 1
                    return count
        """),
            witness=[[["1", "0", "1"], ["1", "1", "1"]]],
            expected=1,
            got=2,
            fails_examples=False,
            why="an island shaped like a U has two such cells; no example has one",
        ),
        Sol(
            SLOW,
            "e",
            "breadth-first search with the visited cells in a list",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    visited = []
                    islands = 0
                    for r in range(len(grid)):
                        for c in range(len(grid[0])):
                            if grid[r][c] == "1" and [r, c] not in visited:
                                islands += 1
                                queue = [[r, c]]
                                visited.append([r, c])
                                while queue:
                                    x, y = queue.pop(0)
                                    for nx, ny in [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]:
                                        if 0 <= nx < len(grid) and 0 <= ny < len(grid[0]):
                                            if grid[nx][ny] == "1" and [nx, ny] not in visited:
                                                visited.append([nx, ny])
                                                queue.append([nx, ny])
                    return islands
        """),
            complexity="O((mn)^2)",
            slow_input="land",
            why="`in visited` scans a list that grows to 90,000 cells",
        ),
        Sol(
            HANGING,
            "f",
            "a while-loop scan of the grid that sinks each island it finds",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    m, n = len(grid), len(grid[0])

                    def sink(r, c):
                        stack = [(r, c)]
                        while stack:
                            i, j = stack.pop()
                            if 0 <= i < m and 0 <= j < n and grid[i][j] == "1":
                                grid[i][j] = "2"
                                stack.extend([(i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)])

                    count = 0
                    r = c = 0
                    while r < m:
                        if grid[r][c] == "1":
                            count += 1
                            sink(r, c)
                        elif grid[r][c] == "0":
                            c += 1
                            if c == n:
                                c = 0
                                r += 1
                    return count
        """),
            witness=[[["1"]]],
            why="the scan steps over water only: on a sunk cell (marked '2') it stays forever, "
            "so it hangs on every grid with land",
        ),
        Sol(
            RAMBLING,
            "g",
            "flood fill with a long explanation, debug prints and unused imports",
            code('''
            import heapq
            import itertools
            from typing import List, Tuple, Set


            class Solution:
                DIRECTIONS: List[Tuple[int, int]] = [(1, 0), (-1, 0), (0, 1), (0, -1)]

                def numIslands(self, grid: List[List[str]]) -> int:
                    """
                    Count connected components of '1' cells (4-directional).

                    For each land cell that we have not visited yet, we start a flood fill
                    (DFS with an explicit stack, so deep islands do not hit the recursion
                    limit) and mark every cell of that island as visited. Each flood fill
                    corresponds to exactly one island.

                    Time: O(m * n), space: O(m * n) in the worst case for the stack.
                    """
                    if not grid or not grid[0]:
                        print("empty grid")
                        return 0
                    height, width = len(grid), len(grid[0])
                    visited: Set[Tuple[int, int]] = set()
                    island_count = 0
                    for row in range(height):
                        for col in range(width):
                            if grid[row][col] == "1" and (row, col) not in visited:
                                island_count += 1
                                size = self._flood(grid, row, col, visited)
                                print(f"island #{island_count} at ({row}, {col}) has {size} cells")
                    return island_count

                def _flood(self, grid, row, col, visited) -> int:
                    stack = [(row, col)]
                    visited.add((row, col))
                    size = 0
                    while stack:
                        r, c = stack.pop()
                        size += 1
                        for dr, dc in self.DIRECTIONS:
                            nr, nc = r + dr, c + dc
                            if 0 <= nr < len(grid) and 0 <= nc < len(grid[0]):
                                if grid[nr][nc] == "1" and (nr, nc) not in visited:
                                    visited.add((nr, nc))
                                    stack.append((nr, nc))
                    return size

                def _print_grid(self, grid):
                    for row in grid:
                        print("".join(row))
        '''),
        ),
        Sol(
            NEAR_DUP,
            "a",
            "iterative flood fill with a stack (variables renamed)",
            code(
                STACK.replace("rows", "height")
                .replace("cols", "width")
                .replace("count", "islands")
                .replace("stack", "todo")
            ),
            dup_of="stack",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            WRONG,
            "b",
            "flood fill whose bounds check forgets negative indices",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    m, n = len(grid), len(grid[0])
                    res = 0
                    for r in range(m):
                        for c in range(n):
                            if grid[r][c] == "1":
                                res += 1
                                grid[r][c] = "#"
                                st = [(r, c)]
                                while st:
                                    x, y = st.pop()
                                    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                                        if nx < m and ny < n and grid[nx][ny] == "1":
                                            grid[nx][ny] = "#"
                                            st.append((nx, ny))
                    return res
        """),
            witness=[[["1", "0", "1"]]],
            expected=2,
            got=1,
            fails_examples=True,
            why="index -1 wraps to the last row or column, joining land across the edges",
        ),
        Sol(
            WRONG,
            "c",
            "flood fill that compares cells with the integer 1",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    rows, cols = len(grid), len(grid[0])
                    n = 0
                    for r in range(rows):
                        for c in range(cols):
                            if grid[r][c] == 1:
                                n += 1
                                q = [(r, c)]
                                grid[r][c] = 0
                                while q:
                                    i, j = q.pop()
                                    for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                                        if 0 <= a < rows and 0 <= b < cols and grid[a][b] == 1:
                                            grid[a][b] = 0
                                            q.append((a, b))
                    return n
        """),
            witness=[[["1"]]],
            expected=1,
            got=0,
            fails_examples=True,
            why="the cells are the strings '0' and '1', never the integer 1",
        ),
        Sol(
            CORRECT,
            "d",
            "depth-first search with a stack and a visited set, grid left unchanged",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    m, n = len(grid), len(grid[0])
                    seen = [[False] * n for _ in range(m)]
                    total = 0
                    for i in range(m):
                        for j in range(n):
                            if grid[i][j] == "1" and not seen[i][j]:
                                total += 1
                                seen[i][j] = True
                                stack = [(i, j)]
                                while stack:
                                    x, y = stack.pop()
                                    for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                                        if 0 <= a < m and 0 <= b < n and not seen[a][b] and grid[a][b] == "1":
                                            seen[a][b] = True
                                            stack.append((a, b))
                    return total
        """),
        ),
        Sol(
            NO_COMPILE,
            "e",
            "flood fill with an unterminated string literal",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    count = 0
                    for r in range(len(grid)):
                        for c in range(len(grid[0])):
                            if grid[r][c] == '1:
                                count += 1
                    return count
        """),
            error="SyntaxError",
            why="an unterminated string literal",
        ),
        Sol(
            SLOW,
            "f",
            "labels every land cell, then relaxes labels over the whole grid until stable",
            code("""
            class Solution:
                def numIslands(self, grid: List[List[str]]) -> int:
                    m, n = len(grid), len(grid[0])
                    label = [[r * n + c if grid[r][c] == "1" else -1 for c in range(n)] for r in range(m)]
                    changed = True
                    while changed:
                        changed = False
                        for r in range(m):
                            for c in range(n):
                                if label[r][c] < 0:
                                    continue
                                for a, b in ((r - 1, c), (r, c - 1), (r + 1, c), (r, c + 1)):
                                    if 0 <= a < m and 0 <= b < n and 0 <= label[a][b] < label[r][c]:
                                        label[r][c] = label[a][b]
                                        changed = True
                    return len({label[r][c] for r in range(m) for c in range(n) if label[r][c] >= 0})
        """),
            complexity="O((mn) * sweeps), up to O((mn)^2)",
            slow_input="snake",
            why="a label travels one cell per sweep against the scan direction: tens of "
            "thousands of sweeps of 90,000 cells on a serpentine island",
        ),
    ],
)
