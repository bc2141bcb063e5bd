/** Whether a state passes a reader's state filter: one name, a set of names, or none (every state). */
export function isWantedState(filter: string | ReadonlySet<string> | undefined, name: string): boolean {
  return filter === undefined || (typeof filter === 'string' ? filter === name : filter.has(name));
}
