// A handed-over file's row: its name, size, folder and caption; Open and Show in folder reach the door with the
// path; an error from the door is shown; without a door (a replay) there are no buttons.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UserFileContext } from '../../state/userFiles';
import { UserFile } from './UserFile';

describe('UserFile', () => {
  it('shows the file and opens it or its folder through the door', async () => {
    const open = vi.fn((_path: string, reveal: boolean) => Promise.resolve(reveal ? 'no file manager' : null));
    render(
      <UserFileContext.Provider value={open}>
        <UserFile path="/work/proj/out/report.md" bytes={2048} caption="The test report." />
      </UserFileContext.Provider>,
    );
    expect(screen.getByTestId('user-file').textContent).toContain('report.md');
    expect(screen.getByTestId('user-file').textContent).toContain('2.0 KB · /work/proj/out');
    expect(screen.getByText('The test report.')).toBeTruthy();
    fireEvent.click(screen.getByText('Open'));
    fireEvent.click(screen.getByText('Show in folder'));
    expect(open.mock.calls).toEqual([
      ['/work/proj/out/report.md', false],
      ['/work/proj/out/report.md', true],
    ]);
    expect((await screen.findByRole('alert')).textContent).toBe('no file manager');
  });

  it('has no buttons where files cannot be opened', () => {
    render(<UserFile path="/r.txt" bytes={3} />);
    expect(screen.queryByText('Open')).toBeNull();
    expect(screen.getByTestId('user-file').textContent).toContain('3 B · /');
  });
});
