/** What one `onebot://<selfId>/<path>` reads (OB-21): the action, its params and how the result becomes a file. */
export interface OneBotRoute {
  action: string;
  params: Record<string, unknown>;
  /** `json`: the data as JSON text; `lines`: JSON Lines; `bytes`: file bytes from `base64` or `url`. */
  form: "json" | "lines" | "bytes";
  /** For `lines`: the array fields of the data to list, in order (a plain array when empty). */
  listFields?: string[];
}

export const ROUTE_HINT = "expected msg/<id>, forward/<id>, image/<file>, record/<file>, group/<gid>, group/<gid>/members, group/<gid>/member/<uid>, group/<gid>/files[/<folder>] or group/<gid>/file/<file_id>";

/** Numeric ids go to the implementation as numbers, which every OneBot v11 implementation accepts. */
function id(value: string): string | number {
  return /^\d{1,15}$/.test(value) ? Number(value) : value;
}

/** The route of a path's segments, or undefined when the path names nothing. */
export function routeOf(segments: readonly string[]): OneBotRoute | undefined {
  const [kind, first, sub, second, ...rest] = segments;
  if (kind === "msg" && first !== undefined && sub === undefined) return { action: "get_msg", params: { message_id: id(first) }, form: "json" };
  if (kind === "forward" && first !== undefined && sub === undefined) return { action: "get_forward_msg", params: { id: first }, form: "json" };
  if (kind === "image" && first !== undefined && sub === undefined) return { action: "get_image", params: { file: first }, form: "bytes" };
  if (kind === "record" && first !== undefined && sub === undefined) return { action: "get_record", params: { file: first, out_format: "mp3" }, form: "bytes" };
  if (kind !== "group" || first === undefined || rest.length > 0) return undefined;
  const group_id = id(first);
  if (sub === undefined) return { action: "get_group_info", params: { group_id }, form: "json" };
  if (sub === "members" && second === undefined) return { action: "get_group_member_list", params: { group_id }, form: "lines", listFields: [] };
  if (sub === "member" && second !== undefined) return { action: "get_group_member_info", params: { group_id, user_id: id(second) }, form: "json" };
  if (sub === "files" && second === undefined) return { action: "get_group_root_files", params: { group_id }, form: "lines", listFields: ["folders", "files"] };
  if (sub === "files" && second !== undefined) return { action: "get_group_files_by_folder", params: { group_id, folder_id: second }, form: "lines", listFields: ["folders", "files"] };
  if (sub === "file" && second !== undefined) return { action: "get_group_file_url", params: { group_id, file_id: second }, form: "bytes" };
  return undefined;
}
