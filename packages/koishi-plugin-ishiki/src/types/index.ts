export type {
  IshikiAttachmentItem,
  IshikiAttachmentLifetime,
  IshikiCatalogTool,
  IshikiAttachment,
  IshikiCompact,
  IshikiDelivery,
  IshikiEvent,
  IshikiEventType,
  IshikiMessageCreated,
  IshikiMessageDeleted,
  IshikiToolsCatalog,
  IshikiUser,
} from "./messages.js";
export { ishikiEntryChecks } from "./entry-checks.js";
export type { IshikiReset, IshikiStepCall, IshikiUsage } from "./operating.js";
