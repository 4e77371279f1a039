/**
 * The publish-after-chdir protocol of worker-read. The main thread changes to dirs[g % dirs.length] and only then
 * stores g as the published generation. A reader loads the generation before (`before`) and after (`after`) its read.
 * Between the two loads, the current directory can have been any dirs[g] for before ≤ g ≤ after + 1: the chdir to
 * dirs[before] had returned before the read started, and the chdir to dirs[after + 1] may have happened but not yet
 * been published. A read that matches none of them is stale. The ring must be longer than the window to judge.
 */
export function isStaleRead(read: string, before: number, after: number, dirs: readonly string[]): boolean {
  const last = Math.min(after + 1, before + dirs.length - 1);
  for (let generation = before; generation <= last; generation++) {
    if (dirs[generation % dirs.length] === read) return false;
  }
  return true;
}
