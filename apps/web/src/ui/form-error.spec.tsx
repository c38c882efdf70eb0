import { render, screen } from '@testing-library/react';
import { FormError } from './form-error';

describe('FormError', () => {
  it('reads the message out as an alert', () => {
    render(<FormError message="Неверный пароль" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Неверный пароль');
  });

  it('renders nothing without a message', () => {
    const { container } = render(<FormError message={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
