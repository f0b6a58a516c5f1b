import type { Logger } from "koishi";
import { loadProfileSources, overlappingAccount, resolveProfile, type ResolvedProfile } from "../profile/index.js";
import { ProfileSchema } from "./profile-schema.js";

/**
 * Loads, validates and checks the claims of every profile (spec 08 KP-3, KP-4, KP-8, KP-11), in id order. A
 * profile that fails is logged `[<id>] profile skipped: <reason>` and the others load; one that overlaps an
 * already loaded profile is skipped too.
 */
export async function loadProfiles(dataPath: string, inline: Record<string, unknown>, logger: Logger): Promise<ResolvedProfile[]> {
  const { sources, errors } = await loadProfileSources(dataPath, inline);
  for (const { id, message } of errors) logger.error(`[${id}] profile skipped: ${message}`);
  const loaded: ResolvedProfile[] = [];
  for (const { id, raw, origin } of sources) {
    let profile: ResolvedProfile;
    try {
      // The resolver's own messages first (they name the key plainly), then the schema's defaults.
      resolveProfile(id, raw);
      profile = resolveProfile(id, validate(raw));
    } catch (error) {
      const where = origin === "koishi.yml" ? "" : `${origin}: `;
      logger.error(`[${id}] profile skipped: ${where}${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const conflict = loaded.map((other) => [other.id, overlappingAccount(other.claims, profile.claims)] as const).find(([, account]) => account !== undefined);
    if (conflict) {
      logger.error(`[${id}] profile skipped: already claims channels of ${conflict[0]} on ${conflict[1]}`);
      continue;
    }
    loaded.push(profile);
  }
  if (sources.length === 0 && errors.length === 0) logger.warn("no profile configured; add one under profiles");
  return loaded;
}

/** Applies the schema's defaults; schemastery's `$.a.b expected …` becomes `a.b: expected …`. */
function validate(raw: unknown): unknown {
  try {
    return ProfileSchema(raw as Parameters<typeof ProfileSchema>[0]);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const match = /^\$\.?(\S*)\s+(.*)$/s.exec(text);
    throw new Error(match ? `${match[1] || "profile"}: ${match[2]}` : text);
  }
}
