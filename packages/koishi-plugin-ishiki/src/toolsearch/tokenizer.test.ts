import { describe, expect, it } from "vitest";
import { tokenize } from "./tokenizer.js";

describe("toolsearch tokenizer (CT-24)", () => {
  it("CT-24 splits snake and kebab case and emits the joined identifier", () => {
    expect(tokenize("write_file")).toEqual(["write", "file", "writefile"]);
    expect(tokenize("write-file")).toEqual(["write", "file", "writefile"]);
    expect(tokenize("get_group_member_list")).toEqual(["get", "group", "member", "list", "getgroupmemberlist"]);
  });

  it("CT-24 splits camelCase boundaries, acronyms included", () => {
    expect(tokenize("readFile")).toEqual(["read", "file", "readfile"]);
    expect(tokenize("HTTPServer")).toEqual(["http", "server", "httpserver"]);
    expect(tokenize("channelId")).toEqual(["channel", "id", "channelid"]);
    expect(tokenize("parseJSONResponse")).toEqual(["parse", "json", "response", "parsejsonresponse"]);
  });

  it("CT-24 keeps single words whole and lowercases them", () => {
    expect(tokenize("Bash")).toEqual(["bash"]);
    expect(tokenize("base64 v11")).toEqual(["base64", "v11"]);
  });

  it("CT-24 applies NFKC before splitting (full-width forms)", () => {
    expect(tokenize("ｗｒｉｔｅ＿ｆｉｌｅ")).toEqual(["write", "file", "writefile"]);
    expect(tokenize("ＨＴＴＰＳｅｒｖｅｒ")).toEqual(["http", "server", "httpserver"]);
  });

  it("CT-24 separates at spaces and punctuation without joining across them", () => {
    expect(tokenize("Read a file. Then, write it!")).toEqual(["read", "a", "file", "then", "write", "it"]);
    expect(tokenize("fs.readFile")).toEqual(["fs", "read", "file", "readfile"]);
  });

  it("CT-24 turns Han runs into overlapping bigrams and a single character into a unigram", () => {
    expect(tokenize("写文件")).toEqual(["写文", "文件"]);
    expect(tokenize("笔记")).toEqual(["笔记"]);
    expect(tokenize("群")).toEqual(["群"]);
    expect(tokenize("发送群消息。")).toEqual(["发送", "送群", "群消", "消息"]);
  });

  it("CT-24 splits at script changes", () => {
    expect(tokenize("用bash执行命令")).toEqual(["用", "bash", "执行", "行命", "命令"]);
    expect(tokenize("B站视频")).toEqual(["b", "站视", "视频"]);
    // Kana and Han are different scripts, so a Japanese word splits where the script changes.
    expect(tokenize("ファイル")).toEqual(["ファ", "ァイ", "イル"]);
    expect(tokenize("書き")).toEqual(["書", "き"]);
  });

  it("CT-24 bigrams Hangul runs", () => {
    expect(tokenize("메시지 전송")).toEqual(["메시", "시지", "전송"]);
  });

  it("CT-24 does not emit a joined identifier for identifiers containing CJK", () => {
    expect(tokenize("note_笔记")).toEqual(["note", "笔记"]);
  });

  it("CT-24 gives documents and queries the same terms", () => {
    const document = tokenize("send_group_msg: 发送群消息 to groupId");
    for (const query of ["send_group_msg", "群消息", "groupId"]) {
      for (const term of tokenize(query)) expect(document).toContain(term);
    }
  });
});
