// Whether the session a component belongs to is in the tab shown: window-wide keys (Shift+Tab's mode switch) are
// taken only there, never by a hidden tab's session.
import { createContext } from 'react';

export const ShownTabContext = createContext(true);
