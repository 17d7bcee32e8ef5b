
class Solution:
    def numIslands(self, grid: List[List[str]]) -> int:
        rows, cols = len(grid), len(grid[0])
        parent = list(range(rows * cols))
        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a
        land = 0
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] != "1":
                    continue
                land += 1
                for nr, nc in ((r - 1, c), (r, c - 1)):
                    if nr >= 0 and nc >= 0 and grid[nr][nc] == "1":
                        a, b = find(r * cols + c), find(nr * cols + nc)
                        if a != b:
                            parent[a] = b
                            land -= 1
        return land
