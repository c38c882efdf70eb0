import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CheckboxField, InputField, SelectField, TextAreaField } from './field';
import { TextField } from './text-field';

describe('InputField, SelectField, TextAreaField', () => {
  it('are named by their label, and an input passes its attributes and changes through', async () => {
    const onChange = jest.fn();
    render(<InputField label="Название" maxLength={5} className="font-mono" onChange={onChange} />);
    const input = screen.getByLabelText('Название');
    expect(input).toHaveAttribute('maxLength', '5');
    expect(input).toHaveClass('font-mono', 'rounded-lg');
    await userEvent.type(input, 'ab');
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('show a hint, or an error in its place', () => {
    const { rerender } = render(<InputField label="Вес" hint="от 0" />);
    expect(screen.getByText('от 0')).toBeInTheDocument();
    rerender(<InputField label="Вес" error="Неверный JSON" />);
    expect(screen.getByText('Неверный JSON')).toHaveClass('text-red-600');
  });

  it('are named by the label alone, described by the hint and the error, and marked invalid while in error', () => {
    const { rerender } = render(<InputField label="Вес" hint="от 0" />);
    const input = screen.getByRole('textbox', { name: 'Вес' });
    expect(input).toHaveAccessibleDescription('от 0');
    expect(input).not.toHaveAttribute('aria-invalid');
    rerender(<InputField label="Вес" hint="от 0" error="Неверный JSON" aria-describedby="outside" />);
    expect(screen.getByRole('textbox', { name: 'Вес' })).toHaveAttribute('aria-invalid', 'true');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toHaveLength(3);
    expect(input.getAttribute('aria-describedby')?.split(' ')[0]).toBe('outside');
    render(
      <SelectField label="Статус" hint="для фильтра">
        <option>Любой</option>
      </SelectField>,
    );
    expect(screen.getByRole('combobox', { name: 'Статус' })).toHaveAccessibleDescription('для фильтра');
    render(<TextAreaField label="Описание" error="Слишком длинно" />);
    expect(screen.getByRole('textbox', { name: 'Описание' })).toHaveAccessibleDescription('Слишком длинно');
  });

  it('let a select choose among its options', async () => {
    const onChange = jest.fn();
    render(
      <SelectField label="Статус" defaultValue="" onChange={(e) => onChange(e.target.value)}>
        <option value="">Любой</option>
        <option value="enabled">Включён</option>
      </SelectField>,
    );
    await userEvent.selectOptions(screen.getByLabelText('Статус'), 'Включён');
    expect(onChange).toHaveBeenCalledWith('enabled');
  });

  it('let a text area take several lines', async () => {
    render(<TextAreaField label="Описание" rows={3} />);
    const area = screen.getByLabelText('Описание');
    await userEvent.type(area, 'one{enter}two');
    expect(area).toHaveValue('one\ntwo');
  });
});

describe('CheckboxField', () => {
  it('is named by its children and reports its checked state', async () => {
    const onChange = jest.fn();
    render(
      <CheckboxField name="agreement" onChange={(e) => onChange(e.target.checked)}>
        Я согласен <a href="/terms">с условиями</a>
      </CheckboxField>,
    );
    const box = screen.getByRole('checkbox', { name: 'Я согласен с условиями' });
    expect(box).toHaveAttribute('name', 'agreement');
    await userEvent.click(box);
    expect(onChange).toHaveBeenCalledWith(true);
  });
});

describe('TextField', () => {
  it('links its label by the id field-<name>, keeps the addon beside the input and shows its hint', () => {
    render(
      <TextField
        name="email"
        label="E-mail"
        hint="Код придёт сюда"
        addon={<button type="button">Код</button>}
      />,
    );
    const input = screen.getByLabelText('E-mail');
    expect(input).toHaveAttribute('id', 'field-email');
    expect(input).toHaveAttribute('name', 'email');
    expect(screen.getByRole('button', { name: 'Код' })).toBeInTheDocument();
    expect(screen.getByText('Код придёт сюда')).toBeInTheDocument();
  });

  it('takes a given id and shows an error', () => {
    render(<TextField id="settings-email" name="email" label="E-mail" error="Неверный e-mail" />);
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('id', 'settings-email');
    expect(screen.getByText('Неверный e-mail')).toHaveClass('text-red-600');
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveAccessibleDescription('Неверный e-mail');
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveAttribute('aria-invalid', 'true');
  });
});
