/**
 * Maximum cardinality matching in a general graph (Edmonds' blossom algorithm, O(V³)): whether some
 * players can all be paired when only some pairs may meet. The graph is not bipartite (two players
 * with even sides may meet, and anyone may in paired deals), so odd cycles — blossoms — are contracted
 * while searching for an augmenting path. Pure.
 */

/** Whether every one of `nodes` can be paired with another of them along `ok` (ok[a][b]: a and b may meet). */
export function hasPerfectMatching(nodes: number[], ok: boolean[][]): boolean {
  if (nodes.length % 2 === 1) return false;
  const n = nodes.length;
  const adj: number[][] = nodes.map((a) => nodes.map((b, j) => (ok[a][b] ? j : -1)).filter((j) => j >= 0));
  return maxMatching(n, adj) * 2 === n;
}

/** Size of a maximum matching of the graph 0…n−1 with adjacency lists `adj`. */
export function maxMatching(n: number, adj: number[][]): number {
  const match = new Array<number>(n).fill(-1);
  const parent = new Array<number>(n).fill(-1);
  const base = new Array<number>(n).fill(0);
  const used = new Array<boolean>(n).fill(false);
  const inBlossom = new Array<boolean>(n).fill(false);
  let queue: number[] = [];

  const lca = (a: number, b: number): number => {
    const seen = new Array<boolean>(n).fill(false);
    for (;;) {
      a = base[a];
      seen[a] = true;
      if (match[a] === -1) break;
      a = parent[match[a]];
    }
    for (;;) {
      b = base[b];
      if (seen[b]) return b;
      b = parent[match[b]];
    }
  };
  const markPath = (v: number, b: number, child: number): void => {
    while (base[v] !== b) {
      inBlossom[base[v]] = inBlossom[base[match[v]]] = true;
      parent[v] = child;
      child = match[v];
      v = parent[match[v]];
    }
  };
  const findPath = (root: number): number => {
    used.fill(false);
    parent.fill(-1);
    for (let i = 0; i < n; i++) base[i] = i;
    used[root] = true;
    queue = [root];
    for (let qh = 0; qh < queue.length; qh++) {
      const v = queue[qh];
      for (const to of adj[v]) {
        if (base[v] === base[to] || match[v] === to) continue;
        if (to === root || (match[to] !== -1 && parent[match[to]] !== -1)) {
          const b = lca(v, to);
          inBlossom.fill(false);
          markPath(v, b, to);
          markPath(to, b, v);
          for (let i = 0; i < n; i++)
            if (inBlossom[base[i]]) {
              base[i] = b;
              if (!used[i]) {
                used[i] = true;
                queue.push(i);
              }
            }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (match[to] === -1) return to;
          used[match[to]] = true;
          queue.push(match[to]);
        }
      }
    }
    return -1;
  };

  // A greedy start: most vertices are matched before any search.
  let size = 0;
  for (let v = 0; v < n; v++)
    if (match[v] === -1)
      for (const to of adj[v])
        if (match[to] === -1) {
          match[v] = to;
          match[to] = v;
          size++;
          break;
        }
  for (let v = 0; v < n; v++) {
    if (match[v] !== -1) continue;
    let u = findPath(v);
    if (u === -1) continue;
    size++;
    while (u !== -1) {
      const pv = parent[u], ppv = match[pv];
      match[u] = pv;
      match[pv] = u;
      u = ppv;
    }
  }
  return size;
}
