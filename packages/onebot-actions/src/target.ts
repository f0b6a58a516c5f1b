/** The group, user and message an action's parameters name, as strings (OB-12, OB-14). */
export interface Target {
  group?: string;
  user?: string;
  message?: string;
}

function id(value: unknown): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : String(value);
}

export function targetOf(params: Record<string, unknown>): Target {
  const target: Target = {};
  const group = id(params.group_id);
  const user = id(params.user_id);
  const message = id(params.message_id);
  if (group !== undefined && params.message_type !== "private") target.group = group;
  if (user !== undefined && !(params.message_type === "group" && group !== undefined)) target.user = user;
  if (message !== undefined) target.message = message;
  return target;
}

export function describeTarget(target: Target): string {
  const parts = [target.group && `group ${target.group}`, target.user && `user ${target.user}`, target.message && `message ${target.message}`].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : "no target";
}
