export type Outcome = "refused" | "contained";

/** Counts what each surface did with each hostile input, for the printed summary. */
export class HostileTally {
  private readonly rows = new Map<string, { refused: number; contained: number }>();
  private readonly inputs = new Set<string>();

  record(surface: string, input: string, outcome: Outcome): void {
    this.inputs.add(`${surface.split(" ")[0]}:${input}`);
    const row = this.rows.get(surface) ?? { refused: 0, contained: 0 };
    row[outcome] += 1;
    this.rows.set(surface, row);
  }

  /** Distinct (surface family, input) pairs: a tool path counts once however many tools ran it. */
  get distinctInputs(): number {
    return this.inputs.size;
  }

  get total(): number {
    let sum = 0;
    for (const row of this.rows.values()) sum += row.refused + row.contained;
    return sum;
  }

  render(): string {
    const lines = [
      "hostile paths: cases × surfaces (refused = clear error, contained = stayed inside the thread)",
      `${"surface".padEnd(32)} ${"cases".padStart(6)} ${"refused".padStart(8)} ${"contained".padStart(10)}  escapes`,
    ];
    for (const [surface, row] of [...this.rows.entries()].sort()) {
      const cases = row.refused + row.contained;
      lines.push(
        `${surface.padEnd(32)} ${String(cases).padStart(6)} ${String(row.refused).padStart(8)} ${String(row.contained).padStart(10)}  0`,
      );
    }
    lines.push(
      `total: ${this.total} checks of ${this.distinctInputs} distinct hostile inputs, 0 escapes`,
    );
    return lines.join("\n");
  }
}
