import { bool, int, list, type LabelledTool, object, oneOf, str } from "./labelled-tool.js";

const message = { type: ["string", "array"], description: "消息内容，字符串（CQ 码）或消息段数组" } as const;
const groupId = int("群号");
const userId = int("QQ 号");

// OneBot v11 actions as the onebot-actions extension exposes them in typed mode (11 OB-10: `onebot_<action>`),
// described the way the go-cqhttp and NapCat documentation describe them.
export const onebotTools: LabelledTool[] = [
  {
    name: "onebot_send_group_msg",
    description: "发送群消息。",
    inputSchema: object({ group_id: groupId, message, auto_escape: bool("是否作为纯文本发送") }, ["group_id", "message"]),
  },
  {
    name: "onebot_send_private_msg",
    description: "发送私聊消息，对方需要是好友或通过群发起临时会话。",
    inputSchema: object({ user_id: userId, group_id: int("临时会话所在群号"), message }, ["user_id", "message"]),
  },
  {
    name: "onebot_send_msg",
    description: "发送消息，根据 message_type 决定发到群还是私聊。",
    inputSchema: object(
      { message_type: oneOf(["private", "group"], "消息类型"), user_id: userId, group_id: groupId, message },
      ["message"],
    ),
  },
  { name: "onebot_delete_msg", description: "撤回消息。", inputSchema: object({ message_id: int("消息 ID") }) },
  { name: "onebot_get_msg", description: "获取消息详情。", inputSchema: object({ message_id: int("消息 ID") }) },
  {
    name: "onebot_get_forward_msg",
    description: "获取合并转发消息的内容。",
    inputSchema: object({ id: str("合并转发 ID") }),
  },
  {
    name: "onebot_send_group_forward_msg",
    description: "发送合并转发（群聊），把多条消息打包成一条聊天记录发送。",
    inputSchema: object({ group_id: groupId, messages: list({ type: "object" }, "自定义转发节点") }),
  },
  {
    name: "onebot_send_like",
    description: "发送好友赞（名片点赞），每个好友每天最多 10 次。",
    inputSchema: object({ user_id: userId, times: int("赞的次数") }, ["user_id"]),
  },
  {
    name: "onebot_set_group_kick",
    description: "群组踢人，把成员移出群聊。",
    inputSchema: object({ group_id: groupId, user_id: userId, reject_add_request: bool("拒绝此人的加群请求") }, ["group_id", "user_id"]),
  },
  {
    name: "onebot_set_group_ban",
    description: "群组单人禁言，duration 为 0 表示取消禁言。",
    inputSchema: object({ group_id: groupId, user_id: userId, duration: int("禁言时长，单位秒") }, ["group_id", "user_id"]),
  },
  {
    name: "onebot_set_group_whole_ban",
    description: "群组全员禁言。",
    inputSchema: object({ group_id: groupId, enable: bool("是否禁言") }, ["group_id"]),
  },
  {
    name: "onebot_set_group_admin",
    description: "群组设置管理员，需要机器人是群主。",
    inputSchema: object({ group_id: groupId, user_id: userId, enable: bool("true 为设置，false 为取消") }, ["group_id", "user_id"]),
  },
  {
    name: "onebot_set_group_card",
    description: "设置群名片（群备注）。",
    inputSchema: object({ group_id: groupId, user_id: userId, card: str("群名片内容，空字符串表示删除") }, ["group_id", "user_id"]),
  },
  {
    name: "onebot_set_group_name",
    description: "设置群名。",
    inputSchema: object({ group_id: groupId, group_name: str("新群名") }),
  },
  {
    name: "onebot_set_group_leave",
    description: "退出群组，机器人是群主时可以解散该群。",
    inputSchema: object({ group_id: groupId, is_dismiss: bool("是否解散") }, ["group_id"]),
  },
  {
    name: "onebot_set_group_special_title",
    description: "设置群组专属头衔。",
    inputSchema: object({ group_id: groupId, user_id: userId, special_title: str("专属头衔"), duration: int("有效期，秒") }, ["group_id", "user_id"]),
  },
  {
    name: "onebot_set_friend_add_request",
    description: "处理加好友请求。",
    inputSchema: object({ flag: str("请求 flag"), approve: bool("是否同意"), remark: str("好友备注") }, ["flag"]),
  },
  {
    name: "onebot_set_group_add_request",
    description: "处理加群请求或邀请。",
    inputSchema: object({ flag: str("请求 flag"), sub_type: oneOf(["add", "invite"], "请求类型"), approve: bool("是否同意"), reason: str("拒绝理由") }, ["flag", "sub_type"]),
  },
  { name: "onebot_get_login_info", description: "获取登录号信息（机器人自己的 QQ 号和昵称）。", inputSchema: object({}) },
  {
    name: "onebot_get_stranger_info",
    description: "获取陌生人信息，包括昵称、性别和年龄。",
    inputSchema: object({ user_id: userId, no_cache: bool("不使用缓存") }, ["user_id"]),
  },
  { name: "onebot_get_friend_list", description: "获取好友列表。", inputSchema: object({}) },
  {
    name: "onebot_get_group_info",
    description: "获取群信息，包括群名、成员数和最大成员数。",
    inputSchema: object({ group_id: groupId, no_cache: bool("不使用缓存") }, ["group_id"]),
  },
  { name: "onebot_get_group_list", description: "获取群列表。", inputSchema: object({}) },
  {
    name: "onebot_get_group_member_info",
    description: "获取群成员信息，包括群名片、头衔、角色（群主/管理员/成员）和入群时间。",
    inputSchema: object({ group_id: groupId, user_id: userId, no_cache: bool("不使用缓存") }, ["group_id", "user_id"]),
  },
  {
    name: "onebot_get_group_member_list",
    description: "获取群成员列表。",
    inputSchema: object({ group_id: groupId }),
  },
  {
    name: "onebot_get_group_honor_info",
    description: "获取群荣誉信息，如龙王、群聊之火、快乐源泉。",
    inputSchema: object({ group_id: groupId, type: oneOf(["talkative", "performer", "legend", "strong_newbie", "emotion", "all"], "荣誉类型") }),
  },
  {
    name: "onebot_get_group_msg_history",
    description: "获取群消息历史记录。",
    inputSchema: object({ group_id: groupId, message_seq: int("起始消息序号，不填则从最新开始"), count: int("条数") }, ["group_id"]),
  },
  {
    name: "onebot_group_poke",
    description: "群聊戳一戳。",
    inputSchema: object({ group_id: groupId, user_id: userId }),
  },
  { name: "onebot_friend_poke", description: "私聊戳一戳。", inputSchema: object({ user_id: userId }) },
  {
    name: "onebot_set_essence_msg",
    description: "设置精华消息。",
    inputSchema: object({ message_id: int("消息 ID") }),
  },
  {
    name: "onebot_get_essence_msg_list",
    description: "获取精华消息列表。",
    inputSchema: object({ group_id: groupId }),
  },
  {
    name: "onebot_send_group_notice",
    description: "发送群公告。",
    inputSchema: object({ group_id: groupId, content: str("公告内容"), image: str("图片 URL 或路径") }, ["group_id", "content"]),
  },
  {
    name: "onebot_upload_group_file",
    description: "上传群文件。",
    inputSchema: object({ group_id: groupId, file: str("本地文件路径或 URL"), name: str("储存名称"), folder: str("父目录 ID") }, ["group_id", "file", "name"]),
  },
  {
    name: "onebot_get_group_root_files",
    description: "获取群根目录文件列表。",
    inputSchema: object({ group_id: groupId }),
  },
  {
    name: "onebot_set_msg_emoji_like",
    description: "给消息贴表情回应（表情点赞）。",
    inputSchema: object({ message_id: int("消息 ID"), emoji_id: str("表情 ID") }),
  },
  {
    name: "onebot_ocr_image",
    description: "图片 OCR，识别图片中的文字。",
    inputSchema: object({ image: str("图片 ID 或 URL") }),
  },
];
