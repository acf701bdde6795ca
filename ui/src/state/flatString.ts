// Makes a string built by many appends flat again. JavaScript engines keep `a + b` as a rope (a
// node pointing at both halves) until something reads the characters; a transcript text grown from
// thousands of streamed deltas and never drawn (a row scrolled out of the virtualised list, or a
// reopened session's history) would keep one rope node and one small string per delta — several
// times the text's own size. Converting to a number reads every character, which flattens the rope
// in place in V8 and JavaScriptCore alike; the value itself is unchanged.

/** Returns `text` after making the engine store it flat (the same string value). */
export function flatten(text: string): string {
  void Number(text);
  return text;
}
