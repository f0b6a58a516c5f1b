export { StandardWakeupEngine } from "./standard.js";
export { V3WakeupEngine } from "./v3.js";
export { JudgeWakeupEngine } from "./judge.js";
