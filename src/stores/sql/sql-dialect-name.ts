/** The engines the SQL layer speaks; queries branch on this only where SQL really differs. */
export type SqlDialectName = "sqlite" | "postgres";
