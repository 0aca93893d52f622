/** A cell is text, or a number printed with thousands separators and `digits` decimals. */
export type Cell = string | { value: number; digits?: number };

function show(cell: Cell): string {
  if (typeof cell === 'string') return cell;
  return cell.value.toLocaleString('en-US', {
    minimumFractionDigits: cell.digits ?? 0,
    maximumFractionDigits: cell.digits ?? 0,
  });
}

/** Prints rows under a title as aligned columns: text to the left, numbers to the right. */
export function printTable(title: string, headers: string[], rows: Cell[][]): void {
  const texts = rows.map((row) => row.map(show));
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...texts.map((row) => row[i]?.length ?? 0)),
  );
  const numeric = headers.map((_, i) => rows.some((row) => typeof row[i] === 'object'));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of texts) console.log(line(row));
}
