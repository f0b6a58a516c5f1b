import { describe, expect, it } from "vitest";
import { claimsChannel, overlappingAccount, parseClaims } from "../src/profile/index.js";

const claims = (channels: Record<string, string[]>) => parseClaims(channels);

describe("claims (KP-9, KP-10, KP-11)", () => {
  it("KP-9 account keys split at the last colon, so platforms with colons match", () => {
    const [claim] = claims({ "sandbox:abc:*": ["*"] });
    expect([claim.platform, claim.selfId]).toEqual(["sandbox:abc", "*"]);
    expect(claimsChannel(claims({ "sandbox:*:*": ["*"] }), "sandbox:xyz", "koishi", "@alice")).toBe(true);
    expect(claimsChannel(claims({ "sandbox:*:bot": ["*"] }), "sandbox:xyz", "koishi", "@alice")).toBe(false);
  });

  it("KP-10 some positive pattern matches and no exclusion does, whatever the order", () => {
    const set = claims({ "onebot:1": ["!private:10000", "*", "!g9*"] });
    expect(claimsChannel(set, "onebot", "1", "123")).toBe(true);
    expect(claimsChannel(set, "onebot", "1", "private:10000")).toBe(false);
    expect(claimsChannel(set, "onebot", "1", "g91")).toBe(false);
    expect(claimsChannel(set, "onebot", "2", "123")).toBe(false);
    expect(claimsChannel(claims({ "onebot:1": ["abc"] }), "onebot", "1", "abcd")).toBe(false);
  });

  it("KP-11 overlap needs intersecting accounts and a channel both claim and neither excludes", () => {
    const overlap = (a: Record<string, string[]>, b: Record<string, string[]>) => overlappingAccount(claims(a), claims(b));
    expect(overlap({ "qq:*": ["*"] }, { "qq:1": ["x"] })).toBe("qq:1");
    expect(overlap({ "qq:1": ["*"] }, { "qq:2": ["*"] })).toBeUndefined();
    expect(overlap({ "qq:a*": ["*"] }, { "qq:ab*": ["*"] })).toBe("qq:ab*");
    // An exact channel excluded by either side is no overlap.
    expect(overlap({ "qq:1": ["*", "!x"] }, { "qq:1": ["x"] })).toBeUndefined();
    expect(overlap({ "qq:1": ["*"] }, { "qq:1": ["x", "!x"] }) ?? "none").toBe("none");
    // An infinite prefix set is covered only by `*` or a shorter-prefix exclusion, never by exact ones.
    expect(overlap({ "qq:1": ["g*", "!g1", "!g2"] }, { "qq:1": ["g*"] })).toBe("qq:1");
    expect(overlap({ "qq:1": ["*", "!g*"] }, { "qq:1": ["g1*"] })).toBeUndefined();
    expect(overlap({ "qq:1": ["*", "!g12*"] }, { "qq:1": ["g1*"] })).toBe("qq:1");
  });

  it("KP-8 rejects keys without a colon, empty or bare `!` patterns, accounts with only exclusions, and no accounts", () => {
    expect(() => claims({})).toThrow("channels: claims no accounts");
    expect(() => claims({ qq: ["*"] })).toThrow("channels.qq: account key needs platform:selfId");
    expect(() => claims({ "qq:1": [""] })).toThrow("channels.qq:1: empty pattern");
    expect(() => claims({ "qq:1": ["!"] })).toThrow("channels.qq:1: empty pattern");
    expect(() => claims({ "qq:1": ["!a"] })).toThrow("channels.qq:1: no positive pattern");
  });

  it("issue 20: a key or pattern no address can match is rejected with the expected shape", () => {
    expect(() => claims({ "sandbox:*": ["*"] })).toThrow('channels.sandbox:*: matches no account: sandbox platforms are named sandbox:<id>, so the key is sandbox:<id>:<selfId>, e.g. "sandbox:*:*"');
    expect(() => claims({ ":1": ["*"] })).toThrow("channels.:1: matches no account: the platform is empty; the key is platform:selfId");
    expect(() => claims({ "onebot:": ["*"] })).toThrow("channels.onebot:: matches no account: the self id is empty");
    expect(() => claims({ "one*bot:1": ["*"] })).toThrow("channels.one*bot:1: matches no account: a * only works at the end");
    expect(() => claims({ "qq:1": ["g*1"] })).toThrow('channels.qq:1: pattern "g*1" matches no channel; a * only works at the end');
    expect(() => claims({ "qq:1": ["*", "!**"] })).toThrow('pattern "!**" matches no channel');
    // Shapes that can match stay accepted.
    expect(claims({ "sandbox*:*": ["*"], "sandbox:a:b": ["@x"] })).toHaveLength(2);
  });
});
