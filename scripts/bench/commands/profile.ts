import { readFileSync } from "node:fs";

// npm run bench: CPU profiles.

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Where a frame's code lives: an npm package, a file of ours, Node itself, or the VM's own work. */
function codeOwner(url: string, functionName: string): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules?.[1]) return modules[1];
  if (url.startsWith("node:")) return "node core";
  const ours = /\/(src|sandbox)\/(.+)$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

/** Self time of a profile by owner and by function (ms), largest first. */
export function summarizeProfile(path: string, top = 12): string[] {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    total += ms;
    const owner = codeOwner(frame.url, frame.functionName);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    const name = `${frame.functionName || "(anonymous)"} ${owner}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const busy = total - (owners.get("(idle)") ?? 0);
  const rank = (map: Map<string, number>) =>
    [...map]
      .filter(([name]) => name !== "(idle)")
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, ms]) =>
          `  ${ms.toFixed(0).padStart(7)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${name}`,
      );
  return [
    `${path}: ${busy.toFixed(0)} ms busy of ${total.toFixed(0)} ms sampled`,
    " self time by owner:",
    ...rank(owners),
    " self time by function:",
    ...rank(functions),
  ];
}
