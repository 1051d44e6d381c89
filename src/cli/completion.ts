/**
 * Shell completion, as Cobra gives Kubebuilder: `kbts completion <shell>` prints a script that, on
 * each Tab, runs `kbts __complete <words...>` and offers what it prints. The candidates come from the
 * live commander program (commands, subcommands, flags), the plugin registry (`--plugins`) and the
 * PROJECT file of the current directory (`--group`, `--version`, `--kind`), so a new flag is completed
 * without anyone touching the scripts, which stay thin wrappers.
 *
 * Protocol (Cobra's): one candidate a line, optionally `<candidate>\t<description>`, then a last line
 * `:<directive>`: `:0` lets the shell complete file names when no candidate is offered, `:4` does not.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command, Option } from "commander";
import type { ProjectConfig } from "../project/config.js";

/** The hidden command the scripts call. */
export const COMPLETE_COMMAND = "__complete";
export const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;
export type Shell = (typeof SHELLS)[number];

export const DIRECTIVE_DEFAULT = 0;
export const DIRECTIVE_NO_FILES = 4;

export interface Candidate {
  value: string;
  description?: string;
}

export interface Completion {
  candidates: Candidate[];
  directive: typeof DIRECTIVE_DEFAULT | typeof DIRECTIVE_NO_FILES;
}

/** Where value candidates come from, besides an option's declared choices. */
export interface CompletionSources {
  /** Plugin keys and which subcommands each has ("init", "create api", "create webhook", "edit"). */
  plugins: () => Array<{ key: string; description: string; commands: string[] }>;
  /** PROJECT of the current directory, if there is a readable one. */
  project: () => ProjectConfig | undefined;
}

/** Values of flags whose help text does not list them (besides --runtime takes a version). */
const VALUES: Record<string, string[]> = {
  "--runtime": ["vendor", "link", "registry"],
};

/**
 * The candidates for the last of `words` (the words after `kbts`, the last one being completed,
 * possibly empty), filtered by what it already holds.
 */
export function complete(program: Command, words: string[], sources: CompletionSources): Completion {
  const done = words.slice(0, -1);
  const current = words.at(-1) ?? "";
  let command = program;
  const path: string[] = [];
  const given = new Map<string, string>(); // long flag -> value, of the command being completed
  let pending: Option | undefined;
  let afterHelp = false;
  for (const word of done) {
    if (pending) {
      if (pending.long) given.set(pending.long, word);
      pending = undefined;
      continue;
    }
    if (word.startsWith("-")) {
      const [flag = "", inline] = word.split(/=(.*)/s);
      const option = findOption(command, flag);
      if (option?.long) given.set(option.long, inline ?? "");
      if (option?.required && inline === undefined) pending = option;
      continue;
    }
    const sub = visibleCommands(command).find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && !afterHelp) {
      if (sub.name() === "help" && command === program) afterHelp = true;
      else {
        command = sub;
        path.push(sub.name());
        given.clear();
      }
    }
  }
  if (pending) return optionValues(pending, path, current, "", given, sources);
  if (current.startsWith("--") && current.includes("=")) {
    const [flag = "", value = ""] = current.split(/=(.*)/s);
    const option = findOption(command, flag);
    if (!option || option.long === undefined || !(option.required || option.optional)) return none();
    return optionValues(option, path, value, `${flag}=`, given, sources);
  }
  if (afterHelp) return offer(visibleCommands(program).map(describeCommand), current, DIRECTIVE_NO_FILES);
  if (current.startsWith("-")) return offer(flagCandidates(command, given), current, DIRECTIVE_NO_FILES);
  // commander's implicit `help` subcommand is offered at the top only, as Cobra's.
  const subs = visibleCommands(command).filter((c) => command === program || c.name() !== "help");
  if (subs.length > 0) return offer(subs.map(describeCommand), current, DIRECTIVE_NO_FILES);
  // A command that takes arguments (setup-envtest use [version]): the shell's own completion.
  if (command.registeredArguments.length > 0) return { candidates: [], directive: DIRECTIVE_DEFAULT };
  return offer(flagCandidates(command, given), current, DIRECTIVE_NO_FILES);
}

function none(): Completion {
  return { candidates: [], directive: DIRECTIVE_NO_FILES };
}

function offer(candidates: Candidate[], current: string, directive: Completion["directive"]): Completion {
  return { candidates: candidates.filter((c) => c.value.startsWith(current)), directive };
}

function visibleCommands(command: Command): Command[] {
  return command.createHelp().visibleCommands(command);
}

function findOption(command: Command, flag: string): Option | undefined {
  return command
    .createHelp()
    .visibleOptions(command)
    .find((o) => o.long === flag || o.short === flag);
}

function describeCommand(c: Command): Candidate {
  return { value: c.name(), description: firstLine(c.description()) };
}

const firstLine = (text: string) => (text.split("\n")[0] ?? "").replace(/\s+/g, " ").trim();

/** Long flags not given yet; a list flag such as --plugins may come again. */
function flagCandidates(command: Command, given: Map<string, string>): Candidate[] {
  return command
    .createHelp()
    .visibleOptions(command)
    .filter((o) => o.long !== undefined && (!given.has(o.long) || o.variadic || o.long === "--plugins"))
    .map((o) => ({ value: o.long ?? "", description: firstLine(o.description) }));
}

/** Values of `option` for `value` (what is typed of it so far), each prefixed with `prefix`. */
function optionValues(
  option: Option,
  path: string[],
  value: string,
  prefix: string,
  given: Map<string, string>,
  sources: CompletionSources,
): Completion {
  const long = option.long ?? "";
  let values: Candidate[] | undefined;
  if (option.argChoices) values = option.argChoices.map((v) => ({ value: v }));
  else if (option.optional) values = [{ value: "true" }, { value: "false" }];
  else if (long === "--plugins") return pluginValues(path.join(" "), value, prefix, sources);
  else if (long === "--license") values = licenseValues(option);
  else if (VALUES[long]) values = (VALUES[long] ?? []).map((v) => ({ value: v }));
  else if ((long === "--group" || long === "--version" || long === "--kind") && path[0] === "create") {
    values = projectValues(long, given, sources);
  }
  if (values) {
    const matching = values.filter((v) => v.value.startsWith(value));
    return {
      candidates: matching.map((v) => ({ ...v, value: prefix + v.value })),
      directive: DIRECTIVE_NO_FILES,
    };
  }
  // A path (<path>, <file>, <dir>): the shell completes file names; any other free value: nothing.
  return /<(path|file|dir)>/.test(option.flags) ? { candidates: [], directive: DIRECTIVE_DEFAULT } : none();
}

/**
 * The licenses a --license help text lists ("may be one of 'apache2', 'none'"): init and edit take
 * different ones, and their help is where each says which.
 */
function licenseValues(option: Option): Candidate[] {
  return [...option.description.matchAll(/'([A-Za-z0-9]+)'/g)].map((m) => ({ value: m[1] ?? "" }));
}

/** `--plugins a,b`: the last key of the list, among plugins that have this subcommand. */
function pluginValues(
  command: string,
  value: string,
  prefix: string,
  sources: CompletionSources,
): Completion {
  const head = value.includes(",") ? value.slice(0, value.lastIndexOf(",") + 1) : "";
  const last = value.slice(head.length);
  const chosen = new Set(head.split(",").filter((k) => k !== ""));
  const candidates = sources
    .plugins()
    .filter((p) => p.commands.includes(command) && !chosen.has(p.key) && p.key.startsWith(last))
    .map((p) => ({ value: prefix + head + p.key, description: firstLine(p.description) }));
  return { candidates, directive: DIRECTIVE_NO_FILES };
}

/** --group/--version/--kind of PROJECT's resources, narrowed by the other two when given. */
function projectValues(long: string, given: Map<string, string>, sources: CompletionSources): Candidate[] {
  const resources = sources.project()?.resources ?? [];
  const field = { "--group": "group", "--version": "version", "--kind": "kind" } as const;
  const key = field[long as keyof typeof field];
  const out = new Set<string>();
  for (const r of resources) {
    const matches = Object.entries(field).every(([flag, f]) => {
      const want = given.get(flag);
      return flag === long || want === undefined || want === "" || r[f] === want;
    });
    const v = r[key];
    if (matches && typeof v === "string" && v !== "") out.add(v);
  }
  return [...out].sort().map((value) => ({ value }));
}

/** The sources of a real run: the plugin registry and ./PROJECT. */
export async function liveSources(cwd: string): Promise<CompletionSources> {
  const { registeredPlugins } = await import("../plugins/index.js");
  const { shortPluginKey } = await import("../plugins/registry.js");
  const { PROJECT_FILE, parseProject } = await import("../project/config.js");
  return {
    plugins: () =>
      registeredPlugins().map((p) => ({
        key: shortPluginKey(p.key),
        description: p.description,
        commands: [
          ...(p.init ? ["init"] : []),
          ...(p.createApi ? ["create api"] : []),
          ...(p.createWebhook ? ["create webhook"] : []),
          ...(p.edit ? ["edit"] : []),
        ],
      })),
    project: () => {
      try {
        return parseProject(readFileSync(join(cwd, PROJECT_FILE), "utf8"));
      } catch {
        return undefined; // no PROJECT here, or one that does not parse: no values from it
      }
    },
  };
}

/** What `kbts __complete` prints: candidates (tab, description), then the directive line. */
export function formatCompletion(c: Completion): string {
  const lines = c.candidates.map((x) => (x.description ? `${x.value}\t${x.description}` : x.value));
  return `${[...lines, `:${c.directive}`].join("\n")}\n`;
}

/** `kbts completion <shell>`: one subcommand a shell, each saying how to load its script. */
export function defineCompletion(completion: Command): void {
  for (const shell of SHELLS) {
    completion
      .command(shell)
      .description(`Generate the autocompletion script for ${shell}`)
      .addHelpText("after", `\n${LOADING[shell]}`)
      .action(() => {
        process.stdout.write(completionScript(shell));
      });
  }
}

/** How to load each script, after Cobra's help texts. */
const LOADING: Record<Shell, string> = {
  bash: `The script needs bash 4.1 or later (no bash-completion package needed).

To load completions in your current shell session:

\tsource <(kbts completion bash)

To load completions for every new session, execute once:

#### Linux:

\tkbts completion bash > /etc/bash_completion.d/kbts

#### macOS:

\tkbts completion bash > $(brew --prefix)/etc/bash_completion.d/kbts

You will need to start a new shell for this setup to take effect.
`,
  zsh: `If shell completion is not already enabled in your environment you will need
to enable it.  You can execute the following once:

\techo "autoload -U compinit; compinit" >> ~/.zshrc

To load completions in your current shell session:

\tsource <(kbts completion zsh)

To load completions for every new session, execute once:

#### Linux:

\tkbts completion zsh > "\${fpath[1]}/_kbts"

#### macOS:

\tkbts completion zsh > $(brew --prefix)/share/zsh/site-functions/_kbts

You will need to start a new shell for this setup to take effect.
`,
  fish: `To load completions in your current shell session:

\tkbts completion fish | source

To load completions for every new session, execute once:

\tkbts completion fish > ~/.config/fish/completions/kbts.fish

You will need to start a new shell for this setup to take effect.
`,
  powershell: `To load completions in your current shell session:

\tkbts completion powershell | Out-String | Invoke-Expression

To load completions for every new session, add the output of the above command
to your powershell profile.
`,
};

export function completionScript(shell: Shell): string {
  return SCRIPTS[shell];
}

// The scripts only split the command line, call `kbts __complete` and hand its candidates to the
// shell; every decision is made by complete() above.
const SCRIPTS: Record<Shell, string> = {
  bash: `# bash completion for kbts (generated by \`kbts completion bash\`)
_kbts_complete() {
    local line="\${COMP_LINE:0:COMP_POINT}" words out directive cur prefix c
    # Words split on blanks only, so --flag=value and key/version stay one word for kbts.
    read -ra words <<< "$line"
    if [[ -z "$line" || "$line" == *[[:space:]] ]]; then words+=(""); fi
    cur="\${words[\${#words[@]}-1]}"
    out=$("\${words[0]}" ${COMPLETE_COMMAND} "\${words[@]:1}" 2>/dev/null) || return
    directive="\${out##*:}"
    out="\${out%:*}"
    # Bash replaces only its own current word (split at COMP_WORDBREAKS, e.g. after "="): drop the rest.
    local bashcur="\${COMP_WORDS[COMP_CWORD]}"
    [[ "$bashcur" == "=" || "$bashcur" == ":" ]] && bashcur=""
    prefix="\${cur%"$bashcur"}"
    COMPREPLY=()
    while IFS='' read -r c; do
        [[ -z "$c" ]] && continue
        c="\${c%%$'\\t'*}"
        COMPREPLY+=("\${c#"$prefix"}")
    done <<< "$out"
    if [[ \${#COMPREPLY[@]} -eq 0 && "$directive" == "${DIRECTIVE_DEFAULT}" ]]; then
        compopt -o filenames 2>/dev/null || :
        while IFS='' read -r c; do COMPREPLY+=("$c"); done < <(compgen -f -- "$bashcur")
    fi
}
complete -F _kbts_complete kbts
`,
  zsh: `#compdef kbts
# zsh completion for kbts (generated by \`kbts completion zsh\`)
_kbts() {
    local -a words_ lines candidates
    local out directive line
    words_=("\${(@)words[2,CURRENT]}")
    out="$(\${words[1]} ${COMPLETE_COMMAND} "\${words_[@]}" 2>/dev/null)" || return 1
    lines=("\${(@f)out}")
    directive="\${lines[-1]#:}"
    for line in "\${(@)lines[1,-2]}"; do
        [[ -z "$line" ]] && continue
        # _describe splits value and description on ":"; a value's own colons are escaped.
        candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    done
    if (( \${#candidates} > 0 )); then
        _describe -t kbts 'kbts' candidates
    elif [[ "$directive" == "${DIRECTIVE_DEFAULT}" ]]; then
        _files
    fi
}
if [[ "\${funcstack[1]}" == "_kbts" ]]; then
    _kbts "$@"
else
    compdef _kbts kbts
fi
`,
  fish: `# fish completion for kbts (generated by \`kbts completion fish\`)
function __kbts_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l out (kbts ${COMPLETE_COMMAND} $words (commandline -ct) 2>/dev/null)
    or return
    set -l directive (string replace -r '^:' '' -- $out[-1])
    set -e out[-1]
    if test (count $out) -eq 0; and test "$directive" = "${DIRECTIVE_DEFAULT}"
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\\n' $out
end
complete -c kbts -f -a '(__kbts_complete)'
`,
  powershell: `# powershell completion for kbts (generated by \`kbts completion powershell\`)
Register-ArgumentCompleter -Native -CommandName 'kbts' -ScriptBlock {
    param($WordToComplete, $CommandAst, $CursorPosition)
    $words = @($CommandAst.CommandElements |
        Where-Object { $_.Extent.StartOffset -lt $CursorPosition } |
        ForEach-Object { $_.Extent.Text } | Select-Object -Skip 1)
    # An empty argument reaches a native command only from PowerShell 7.3 on; before, '""' is one.
    $empty = if ($PSVersionTable.PSVersion -ge [version]'7.3') { '' } else { '""' }
    if ($WordToComplete -eq '') { $words += $empty }
    elseif ($words.Count -gt 0) { $words[-1] = $WordToComplete }
    $out = @(& kbts ${COMPLETE_COMMAND} @words 2>$null)
    if ($out.Count -eq 0) { return }
    $directive = $out[-1].TrimStart(':')
    $lines = @($out | Select-Object -SkipLast 1 | Where-Object { $_ -ne '' })
    if ($lines.Count -eq 0 -and $directive -eq '${DIRECTIVE_DEFAULT}') { return }
    foreach ($line in $lines) {
        $value, $description = $line -split "\`t", 2
        if (-not $description) { $description = $value }
        [System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $description)
    }
}
`,
};
