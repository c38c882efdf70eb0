/** Text that, in the last message of a request offering tools, makes the fake answer with a tool call. */
export const TOOL_CALL_MARKER = 'call_tool';

export interface ToolSpec {
  name: string;
  /** JSON schema of the arguments. */
  parameters: unknown;
}

export interface ToolChoiceInput {
  tools: readonly ToolSpec[];
  /** The request forbids tool calls ("none"). */
  disabled: boolean;
  /** The request demands some tool call ("required" / "any" / "ANY"). */
  required: boolean;
  /** The request forces this tool. */
  forcedName: string | undefined;
  lastMessageText: string;
}

/** The tool to call, or undefined when the fake should answer with text. */
export function chooseTool(input: ToolChoiceInput): ToolSpec | undefined {
  if (input.tools.length === 0 || input.disabled) return undefined;
  if (input.forcedName !== undefined) {
    return input.tools.find((tool) => tool.name === input.forcedName) ?? input.tools[0];
  }
  if (input.required || input.lastMessageText.includes(TOOL_CALL_MARKER)) return input.tools[0];
  return undefined;
}
