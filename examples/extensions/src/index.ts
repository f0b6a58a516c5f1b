export { default as NoteExtension } from "./note.js";
export { BriefingContextEngine } from "./briefing.js";
export { GroundingToolcallEngine } from "./grounding.js";
export { RhythmWakeupEngine } from "./rhythm.js";
export { ClockHandler } from "./clock.js";
export { ClockExtension } from "./clock-extension.js";
import "./engine-map.js";
