// `npm start`: the Koishi app in examples/bot arrives with the Koishi integration (issue 8); until then this
// says how far the project is instead of failing obscurely.
console.log(`Ishiki: the runnable bot (examples/bot, started by this command) is not built yet.
What exists: the monorepo, the koishi-plugin-ishiki package that loads in a Koishi app, and its tests (npm test).`);
