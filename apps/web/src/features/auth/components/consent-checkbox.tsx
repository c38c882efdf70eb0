import type { ReactNode } from 'react';

interface ConsentCheckboxProps {
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}

export function ConsentCheckbox({ name, checked, onChange, children }: ConsentCheckboxProps) {
  return (
    <label className="flex items-start gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-0.5 size-4 shrink-0 accent-indigo-600"
      />
      <span>{children}</span>
    </label>
  );
}
