/** How a command of issue 22 is registered: the authority a user needs (admin, 3, by default). */
export interface CommandOptions {
  authority: number;
}
