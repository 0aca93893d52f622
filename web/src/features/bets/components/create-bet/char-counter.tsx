/** "12/200" under a field; referenced by the field's aria-describedby. */
export function CharCounter({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <p id={id} className="text-right text-xs text-slate-600" data-testid={`${id}`}>
      {length}/{max}
    </p>
  );
}
