import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { catalog } from "../src/index.js";

const root = fileURLToPath(new URL("..", import.meta.url));

const STANDARD = [
  "send_private_msg", "send_group_msg", "send_msg", "delete_msg", "get_msg", "get_forward_msg", "send_like", "set_group_kick", "set_group_ban",
  "set_group_anonymous_ban", "set_group_whole_ban", "set_group_admin", "set_group_anonymous", "set_group_card", "set_group_name", "set_group_leave",
  "set_group_special_title", "set_friend_add_request", "set_group_add_request", "get_login_info", "get_stranger_info", "get_friend_list",
  "get_group_info", "get_group_list", "get_group_member_info", "get_group_member_list", "get_group_honor_info", "get_cookies", "get_csrf_token",
  "get_credentials", "get_record", "get_image", "can_send_image", "can_send_record", "get_status", "get_version_info", "set_restart", "clean_cache",
];
const EXTENSIONS = [
  "send_group_forward_msg", "send_private_forward_msg", "get_group_msg_history", "get_friend_msg_history", "mark_msg_as_read", "set_msg_emoji_like",
  "group_poke", "friend_poke", "set_essence_msg", "delete_essence_msg", "get_essence_msg_list", "_send_group_notice", "_get_group_notice",
  "upload_group_file", "upload_private_file", "get_group_root_files", "get_group_files_by_folder", "get_group_file_url", "delete_group_file",
  "get_group_system_msg", "get_group_at_all_remain", "ocr_image", "delete_friend",
];
const DESTRUCTIVE = [
  "set_group_kick", "set_group_ban", "set_group_anonymous_ban", "set_group_whole_ban", "set_group_admin", "set_group_anonymous", "set_group_name",
  "set_group_leave", "set_friend_add_request", "set_group_add_request", "delete_group_file", "delete_essence_msg", "delete_friend", "set_restart", "clean_cache",
];

describe("onebot-actions: the build-time catalog", () => {
  it("OB-3 a fresh generation equals the committed src/generated output", async () => {
    const out = await mkdtemp(join(tmpdir(), "ishiki-ob-catalog-"));
    try {
      await promisify(execFile)(process.execPath, [join(root, "scripts/generate.mjs"), out], { cwd: root });
      for (const name of ["catalog.ts", "catalog.json"]) {
        expect(await readFile(join(out, name), "utf8"), `${name} is stale; run node scripts/generate.mjs`).toBe(await readFile(join(root, "src/generated", name), "utf8"));
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it("OB-4 OB-5 every standard action and common extension is an entry with the OB-4 fields", () => {
    const actions = catalog.map((entry) => entry.action);
    expect([...actions].sort()).toEqual([...STANDARD, ...EXTENSIONS].sort());
    for (const entry of catalog) {
      expect(entry.summary, entry.action).toMatch(/^[^\n]+$/);
      expect(entry.params.type, entry.action).toBe("object");
      expect(entry.implementations.length, entry.action).toBeGreaterThan(0);
      for (const pointer of entry.mediaParams) expect(Object.keys(entry.params.properties as object), entry.action).toContain(pointer.slice(1));
    }
    for (const action of STANDARD) expect(catalog.find((entry) => entry.action === action)!.implementations, action).toContain("onebot11");
    for (const action of EXTENSIONS) expect(catalog.find((entry) => entry.action === action)!.implementations, action).not.toContain("onebot11");
  });

  it("OB-6 risks: secrets, destructive actions, writes and reads", () => {
    const risk = (action: string) => catalog.find((entry) => entry.action === action)!.risk;
    expect(catalog.filter((entry) => entry.risk === "secret").map((entry) => entry.action).sort()).toEqual(["get_cookies", "get_credentials", "get_csrf_token"]);
    expect(catalog.filter((entry) => entry.risk === "destructive").map((entry) => entry.action).sort()).toEqual([...DESTRUCTIVE].sort());
    for (const action of ["send_group_msg", "set_msg_emoji_like", "group_poke", "set_essence_msg", "upload_group_file", "set_group_card", "delete_msg"]) expect(risk(action), action).toBe("write");
    for (const entry of catalog.filter((item) => item.action.startsWith("get_") && !["get_cookies", "get_csrf_token", "get_credentials"].includes(item.action))) expect(entry.risk, entry.action).toBe("read");
  });
});
