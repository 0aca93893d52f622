import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';

/** A labelled text field with a character limit and a "used/limit" counter under it. */
export function LimitedTextField({
  id,
  label,
  max,
  value,
  onChange,
  placeholder,
  multiline = false,
}: {
  id: string;
  label: string;
  max: number;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  multiline?: boolean;
}) {
  const field = {
    id,
    maxLength: max,
    placeholder,
    value,
    'aria-describedby': `${id}-count`,
  };
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {multiline ? (
        <Textarea {...field} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <Input {...field} onChange={(event) => onChange(event.target.value)} />
      )}
      <p
        id={`${id}-count`}
        data-testid={`${id}-count`}
        className="text-right text-xs text-slate-600"
      >
        {value.length}/{max}
      </p>
    </div>
  );
}
