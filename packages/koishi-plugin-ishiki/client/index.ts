// The Ishiki page of the Koishi console (issue 21): profiles, their runtimes and one runtime's fact stream.
// Built by `pnpm run build` (scripts/build-console.mjs) into ../dist, which the server side registers.
import { icons, type Context } from "@koishijs/client";
import Icon from "./icon.vue";
import Page from "./page.vue";

export default (ctx: Context) => {
  icons.register("activity:ishiki", Icon);
  ctx.page({
    name: "Ishiki",
    path: "/ishiki",
    icon: "activity:ishiki",
    order: 450,
    // Koishi's admin authority, as the server side requires for the data; `fields` hides the page until the
    // `ishiki` data arrived (the console sends none to a lower authority).
    authority: 4,
    fields: ["ishiki"],
    component: Page,
  });
};
