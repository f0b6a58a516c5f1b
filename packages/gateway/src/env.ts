import { GatewayError } from "./errors.js";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Expands `${NAME}` in one configured value (spec 02 GW-13). Every substituted value is added to `secrets`
 * so that logs and dumps can redact it; an unset or empty variable fails with the value's config path.
 */
export function expandEnv(
  value: string,
  path: string,
  env: Record<string, string | undefined>,
  secrets: Set<string>,
): string {
  return value.replace(REFERENCE, (_, name: string) => {
    const found = env[name];
    if (!found) throw new GatewayError(`${path}: environment variable "${name}" is not set`);
    secrets.add(found);
    return found;
  });
}
