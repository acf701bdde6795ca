// The door from a sub-agent's row to the engine: stops the sub-agent an Agent call (or background task) started.
import { createContext } from 'react';

/** A context: stops the sub-agent of the Agent call or background task `id`; null where nothing can be stopped. */
export const StopSubAgentContext = createContext<((id: string) => void) | null>(null);
