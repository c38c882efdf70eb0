import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useFieldDescription, type FieldDescription } from './field-description';
import { inputClass, labelClass } from './styles';

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** Said under the control in red while set. */
  error?: ReactNode;
}

/** A label wrapped around its control (so the label names it), with a hint or an error under it. */
function Field({
  label,
  hint,
  error,
  description,
  children,
}: FieldProps & { description: FieldDescription; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label className="flex flex-col gap-1">
        <span className={labelClass}>{label}</span>
        {children}
      </label>
      {hint ? (
        <span id={description.hintId} className="text-xs text-slate-500">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={description.errorId} className="text-xs text-red-600">
          {error}
        </span>
      ) : null}
    </div>
  );
}

const controlClass = (extra: string | undefined) => (extra ? `${inputClass} ${extra}` : inputClass);

export function InputField({
  label,
  hint,
  error,
  className,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const description = useFieldDescription({ hint, error }, input['aria-describedby']);
  return (
    <Field label={label} hint={hint} error={error} description={description}>
      <input className={controlClass(className)} {...input} {...description.controlAria} />
    </Field>
  );
}

export function SelectField({
  label,
  hint,
  error,
  className,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  const description = useFieldDescription({ hint, error }, select['aria-describedby']);
  return (
    <Field label={label} hint={hint} error={error} description={description}>
      <select className={controlClass(className)} {...select} {...description.controlAria}>
        {children}
      </select>
    </Field>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  className,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const description = useFieldDescription({ hint, error }, textarea['aria-describedby']);
  return (
    <Field label={label} hint={hint} error={error} description={description}>
      <textarea className={controlClass(className)} {...textarea} {...description.controlAria} />
    </Field>
  );
}

/** A checkbox with its label (the children) beside it. */
export function CheckboxField({
  children,
  className,
  ...input
}: { children: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <label className={`flex items-start gap-2 text-sm text-slate-700 ${className ?? ''}`}>
      <input type="checkbox" className="mt-0.5 size-4 shrink-0 accent-indigo-600" {...input} />
      <span>{children}</span>
    </label>
  );
}
