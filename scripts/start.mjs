// `npm start` (after bootstrap.mjs installed pnpm and the dependencies): the demo Koishi app in examples/bot,
// console and sandbox at http://127.0.0.1:5140 (spec 08 KP-40).
import "../examples/bot/start.mjs";
