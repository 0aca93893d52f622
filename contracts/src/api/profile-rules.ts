/** Profile limits, free of zod for the browser. */
export const NAME_MAX_LENGTH = 100;
