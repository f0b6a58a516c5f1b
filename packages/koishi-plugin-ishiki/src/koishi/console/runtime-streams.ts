import { dirname, join } from "node:path";
import type { Runtime } from "../../runtime/index.js";
import { profileStreams } from "../../usage/index.js";
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
 * The runtimes of a profile: those in its registry and the homes found under `<root>/runtimes` (KP-14 layout,
 * listed as `ishiki.usage` lists them). Paths always come from here, never from what a client sent: a client
 * names a runtime by id and gets only a stream listed here.
 */
export async function runtimeStreams(activation: ProfileActivation): Promise<RuntimeStream[]> {
  const profileId = activation.profile.id;
  const byHome = new Map<string, RuntimeStream>();
  for (const file of await profileStreams(activation.root)) {
    const home = dirname(file.path);
    byHome.set(home, { id: `${profileId}/${file.channel}`, profileId, home, path: file.path });
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
