import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18next as i18n } from '../i18n/i18n';
import { ApiError } from '../api/api-error';
import { PagedTable, type PageQuery } from './paged-table';

interface Row {
  id: number;
  name: string;
}

const rows: Row[] = [
  { id: 1, name: 'alpha' },
  { id: 2, name: 'beta' },
];

const settled = (data: PageQuery<Row>['data'], over: Partial<PageQuery<Row>> = {}): PageQuery<Row> => ({
  isPending: false,
  isError: false,
  error: null,
  data,
  refetch: jest.fn(),
  ...over,
});

function renderTable(query: PageQuery<Row>, page = 1, onPage = jest.fn()) {
  render(
    <PagedTable
      query={query}
      headers={['ID', 'Имя', '']}
      rowKey={(row) => row.id}
      row={(row) => (
        <tr data-testid="row">
          <td>{row.id}</td>
          <td>{row.name}</td>
          <td />
        </tr>
      )}
      empty="Ничего нет"
      page={page}
      pageSize={10}
      onPage={onPage}
    />,
  );
  return onPage;
}

describe('PagedTable', () => {
  beforeAll(() => i18n.changeLanguage('ru'));

  it('renders the headings, one row per record and the page count with the total', () => {
    renderTable(settled({ items: rows, total: 25 }));
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['ID', 'Имя', '']);
    expect(screen.getAllByTestId('row').map((tr) => within(tr).getAllByRole('cell')[1]?.textContent)).toEqual(
      ['alpha', 'beta'],
    );
    expect(screen.getByText('Страница 1 из 3 · всего 25')).toBeInTheDocument();
  });

  it('pages forward and back, and not past either end', async () => {
    const onPage = renderTable(settled({ items: rows, total: 25 }), 3);
    expect(screen.getByRole('button', { name: 'Вперёд' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Назад' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it('disables both buttons when everything fits on one page', () => {
    renderTable(settled({ items: rows, total: 2 }));
    expect(screen.getByText('Страница 1 из 1 · всего 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Назад' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Вперёд' })).toBeDisabled();
  });

  it('says so when the page is empty, with no table', () => {
    renderTable(settled({ items: [], total: 0 }));
    expect(screen.getByText('Ничего нет')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows loading while the first page is read', () => {
    renderTable(settled(undefined, { isPending: true }));
    expect(screen.getByRole('status')).toHaveTextContent('Загрузка…');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the server error with a retry that reads the page again', async () => {
    const query = settled(undefined, { isError: true, error: new ApiError('http', 'нет связи', 503) });
    renderTable(query);
    expect(screen.getByRole('alert')).toHaveTextContent('нет связи');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(query.refetch).toHaveBeenCalledTimes(1);
  });

  it('keeps the page it had under the error of a failed refetch', () => {
    renderTable(
      settled({ items: rows, total: 2 }, { isError: true, error: new ApiError('http', 'нет связи', 503) }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('нет связи');
    expect(screen.getAllByTestId('row')).toHaveLength(2);
  });
});
