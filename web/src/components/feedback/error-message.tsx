/** A list or panel that could not load; the text says what and the error says why. */
export function ErrorMessage({ what, error }: { what: string; error: Error }) {
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      Could not load {what} ({error.message}).
    </p>
  );
}
