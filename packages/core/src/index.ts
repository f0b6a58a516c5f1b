import { IshikiService } from "./koishi/service.js";

export { IshikiService };
export type { IshikiConfig } from "./koishi/config.js";
export default IshikiService;
