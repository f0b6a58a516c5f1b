import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Runtime } from "../../runtime/index.js";
import type { ProfileActivation } from "../profile-activation.js";

/** One runtime the page can show: live (in the registry) or only on disk. */
export interface RuntimeStream {
  id: string;
  profileId: string;
  home: string;
  /** events.jsonl of the runtime. */
  path: string;
  /** The runtime while it is in the registry; `starting` while its creation is in flight. */
  live?: Runtime | "starting";
}

/**
 * The runtimes of a profile: those in its registry and the homes found under `<root>/runtimes` (KP-14 layout:
 * `<enc(platform:selfId)>/<enc(channelId)>` or `main`). A home on disk is named by decoding its segments; a
 * shortened segment (`~<hash>`) cannot be decoded and is named by its folder. Paths always come from here, never
 * from what a client sent: a client names a runtime by id and gets only a stream listed here.
 */
export async function runtimeStreams(activation: ProfileActivation): Promise<RuntimeStream[]> {
  const profileId = activation.profile.id;
  const byHome = new Map<string, RuntimeStream>();
  const runtimes = join(activation.root, "runtimes");
  for (const account of await folders(runtimes)) {
    if (account === "main") {
      const home = join(runtimes, "main");
      byHome.set(home, { id: `${profileId}/main`, profileId, home, path: join(home, "events.jsonl") });
      continue;
    }
    for (const channel of await folders(join(runtimes, account))) {
      const home = join(runtimes, account, channel);
      byHome.set(home, { id: `${profileId}/${decodeSegment(account)}/${decodeSegment(channel)}`, profileId, home, path: join(home, "events.jsonl") });
    }
  }
  for (const id of activation.runtimeIds()) {
    // A creation still in flight (waiting for its home lease, say) must not hold the page up: look, don't wait.
    const runtime = activation.peekRuntime(id);
    if (runtime === undefined) continue;
    if (runtime === "starting") {
      const known = [...byHome.values()].find((stream) => stream.id === id);
      if (known) known.live = "starting";
      continue;
    }
    byHome.set(runtime.home, { id: runtime.id, profileId, home: runtime.home, path: join(runtime.home, "events.jsonl"), live: runtime });
  }
  return [...byHome.values()].sort((left, right) => left.id.localeCompare(right.id));
}

/** The inverse of `encodeSegment` for segments it did not shorten. */
function decodeSegment(segment: string): string {
  return segment.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

async function folders(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}
