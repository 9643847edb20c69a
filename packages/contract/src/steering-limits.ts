/**
 * How many guidance rules, curated answers and tests an assistant may hold, and how many turns a
 * test has (docs/steering.md "Endpoints"). Plain code: the dashboard bundles it.
 */
export const STEERING_LIMITS = { guidance: 100, answers: 500, tests: 200 } as const;
export const MAX_TEST_TURNS = 10;
