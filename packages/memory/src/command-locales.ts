// Texts of `ishiki.memory` (Koishi i18n); `{0}`, `{1}` are the arguments of `session.text`.
export const zhCN = {
  commands: {
    "ishiki.memory": {
      description: "查看、删除与导出机器人记住的内容（自己的随时可管，管理员可管全部）",
      options: { user: "（管理员）指定用户 id", channel: "（管理员）当前频道的记忆", profile: "只看某个 profile", all: "删除自己的全部记忆" },
      messages: {
        empty: "没有记忆。",
        header: "共 {0} 条记忆：",
        "not-found": "没有 id 为 {0} 的记忆，或你无权查看。",
        forgotten: "已删除 {0} 条记忆。",
        "admin-only": "只有管理员可以查看或删除他人与频道的记忆。",
        exported: "已导出 {0} 条记忆到 {1}",
        "need-id": "请给出记忆 id，或用 --all 删除自己的全部记忆。",
      },
    },
  },
};

export const enUS = {
  commands: {
    "ishiki.memory": {
      description: "List, show, forget and export what the bot remembers (your own at any time; admins everything)",
      options: { user: "(admins) a user id", channel: "(admins) this channel's memories", profile: "only this profile", all: "forget all your own memories" },
      messages: {
        empty: "No memories.",
        header: "{0} memories:",
        "not-found": "No memory {0}, or you may not see it.",
        forgotten: "Forgot {0} memories.",
        "admin-only": "Only admins may see or erase other people's and channels' memories.",
        exported: "Exported {0} memories to {1}",
        "need-id": "Give a memory id, or --all to forget all your own memories.",
      },
    },
  },
};
