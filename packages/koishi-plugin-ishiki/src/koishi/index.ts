export { IshikiService } from "./service.js";
export { IshikiConfig } from "./config.js";
export { ProfileSchema } from "./profile-schema.js";
export { ProfileActivation, type ActivationStatus } from "./profile-activation.js";
export { createKoishiOutboundPort } from "./koishi-outbound.js";
export { BudgetSchema, ModelPricesSchema } from "./operating-schema.js";
