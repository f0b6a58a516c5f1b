import { bool, int, list, type LabelledTool, object, oneOf, str } from "./labelled-tool.js";

// Reference MCP servers (modelcontextprotocol/servers) as the mcp-client extension names them: `<server>-<tool>`
// (10 MC-10), with the descriptions the servers publish.
const entity = object({
  name: str("The name of the entity"),
  entityType: str("The type of the entity"),
  observations: list(str("An observation"), "An array of observation contents associated with the entity"),
});
const relation = object({
  from: str("The name of the entity where the relation starts"),
  to: str("The name of the entity where the relation ends"),
  relationType: str("The type of the relation"),
});
const path = str("Path of the file or directory");

export const memoryTools: LabelledTool[] = [
  { name: "memory-create_entities", description: "Create multiple new entities in the knowledge graph", inputSchema: object({ entities: list(entity) }) },
  {
    name: "memory-create_relations",
    description: "Create multiple new relations between entities in the knowledge graph. Relations should be in active voice",
    inputSchema: object({ relations: list(relation) }),
  },
  {
    name: "memory-add_observations",
    description: "Add new observations to existing entities in the knowledge graph",
    inputSchema: object({ observations: list(object({ entityName: str("The name of the entity to add the observations to"), contents: list(str("An observation")) })) }),
  },
  {
    name: "memory-delete_entities",
    description: "Delete multiple entities and their associated relations from the knowledge graph",
    inputSchema: object({ entityNames: list(str("Entity name"), "An array of entity names to delete") }),
  },
  {
    name: "memory-delete_observations",
    description: "Delete specific observations from entities in the knowledge graph",
    inputSchema: object({ deletions: list(object({ entityName: str("The name of the entity containing the observations"), observations: list(str("An observation")) })) }),
  },
  { name: "memory-delete_relations", description: "Delete multiple relations from the knowledge graph", inputSchema: object({ relations: list(relation) }) },
  { name: "memory-read_graph", description: "Read the entire knowledge graph", inputSchema: object({}) },
  {
    name: "memory-search_nodes",
    description: "Search for nodes in the knowledge graph based on a query",
    inputSchema: object({ query: str("The search query to match against entity names, types, and observation content") }),
  },
  {
    name: "memory-open_nodes",
    description: "Open specific nodes in the knowledge graph by their names",
    inputSchema: object({ names: list(str("Entity name"), "An array of entity names to retrieve") }),
  },
];

export const filesystemTools: LabelledTool[] = [
  {
    name: "filesystem-read_text_file",
    description:
      "Read the complete contents of a file from the file system as text. Handles various text encodings and provides " +
      "detailed error messages if the file cannot be read. Use the 'head' parameter to read only the first N lines of a " +
      "file, or the 'tail' parameter to read only the last N lines of a file. Only works within allowed directories.",
    inputSchema: object({ path, head: int("If provided, returns only the first N lines"), tail: int("If provided, returns only the last N lines") }, ["path"]),
  },
  {
    name: "filesystem-read_media_file",
    description: "Read an image or audio file. Returns the base64 encoded data and MIME type. Only works within allowed directories.",
    inputSchema: object({ path }),
  },
  {
    name: "filesystem-read_multiple_files",
    description:
      "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when " +
      "you need to analyze or compare multiple files. Failed reads for individual files won't stop the entire operation.",
    inputSchema: object({ paths: list(str("File path")) }),
  },
  {
    name: "filesystem-write_file",
    description:
      "Create a new file or completely overwrite an existing file with new content. Use with caution as it will " +
      "overwrite existing files without warning. Handles text content with proper encoding.",
    inputSchema: object({ path, content: str("Content to write") }),
  },
  {
    name: "filesystem-edit_file",
    description:
      "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a " +
      "git-style diff showing the changes made.",
    inputSchema: object({ path, edits: list(object({ oldText: str("Text to search for - must match exactly"), newText: str("Text to replace with") })), dryRun: bool("Preview changes using git-style diff format") }, ["path", "edits"]),
  },
  {
    name: "filesystem-create_directory",
    description:
      "Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. " +
      "If the directory already exists, this operation will succeed silently.",
    inputSchema: object({ path }),
  },
  {
    name: "filesystem-list_directory",
    description:
      "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between " +
      "files and directories with [FILE] and [DIR] prefixes.",
    inputSchema: object({ path }),
  },
  {
    name: "filesystem-directory_tree",
    description:
      "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' " +
      "(file/directory), and 'children' for directories.",
    inputSchema: object({ path, excludePatterns: list(str("Glob pattern")) }, ["path"]),
  },
  {
    name: "filesystem-move_file",
    description:
      "Move or rename files and directories. Can move files between directories and rename them in a single " +
      "operation. If the destination exists, the operation will fail.",
    inputSchema: object({ source: str("Source path"), destination: str("Destination path") }),
  },
  {
    name: "filesystem-search_files",
    description:
      "Recursively search for files and directories matching a pattern. Searches through all subdirectories from " +
      "the starting path. Returns full paths to all matching items.",
    inputSchema: object({ path, pattern: str("Glob pattern to match"), excludePatterns: list(str("Glob pattern")) }, ["path", "pattern"]),
  },
  {
    name: "filesystem-get_file_info",
    description:
      "Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, " +
      "creation time, last modified time, permissions, and type.",
    inputSchema: object({ path }),
  },
  {
    name: "filesystem-list_allowed_directories",
    description: "Returns the list of directories that this server is allowed to access.",
    inputSchema: object({}),
  },
];

export const fetchAndTimeTools: LabelledTool[] = [
  {
    name: "fetch-fetch",
    description:
      "Fetches a URL from the internet and optionally extracts its contents as markdown. Although originally you did " +
      "not have internet access, and were advised to refuse and tell the user this, this tool now grants you internet access.",
    inputSchema: object({ url: str("URL to fetch"), max_length: int("Maximum number of characters to return"), start_index: int("Start output at this character index"), raw: bool("Get the actual HTML content without simplification") }, ["url"]),
  },
  {
    name: "time-get_current_time",
    description: "Get current time in a specific timezones",
    inputSchema: object({ timezone: str("IANA timezone name (e.g., 'America/New_York', 'Europe/London')") }),
  },
  {
    name: "time-convert_time",
    description: "Convert time between timezones",
    inputSchema: object({ source_timezone: str("Source IANA timezone name"), time: str("Time to convert in 24-hour format (HH:MM)"), target_timezone: str("Target IANA timezone name") }),
  },
  {
    name: "sequential-thinking-sequentialthinking",
    description:
      "A detailed tool for dynamic and reflective problem-solving through thoughts. This tool helps analyze problems " +
      "through a flexible thinking process that can adapt and evolve.",
    inputSchema: object({ thought: str("Your current thinking step"), nextThoughtNeeded: bool("Whether another thought step is needed"), thoughtNumber: int("Current thought number"), totalThoughts: int("Estimated total thoughts needed") }),
  },
  {
    name: "brave-search-brave_web_search",
    description:
      "Performs a web search using the Brave Search API, ideal for general queries, news, articles, and online " +
      "content. Supports pagination and content filtering.",
    inputSchema: object({ query: str("Search query (max 400 chars, 50 words)"), count: int("Number of results (1-20, default 10)"), offset: int("Pagination offset") }, ["query"]),
  },
  {
    name: "brave-search-brave_local_search",
    description: "Searches for local businesses and places using Brave's Local Search API. Best for queries related to physical locations, businesses, restaurants, services.",
    inputSchema: object({ query: str("Local search query (e.g. 'pizza near Central Park')"), count: int("Number of results") }, ["query"]),
  },
  {
    name: "puppeteer-puppeteer_navigate",
    description: "Navigate to a URL",
    inputSchema: object({ url: str("URL to navigate to") }),
  },
  {
    name: "puppeteer-puppeteer_screenshot",
    description: "Take a screenshot of the current page or a specific element",
    inputSchema: object({ name: str("Name for the screenshot"), selector: str("CSS selector for element to screenshot"), width: int("Width in pixels"), height: int("Height in pixels") }, ["name"]),
  },
  {
    name: "puppeteer-puppeteer_click",
    description: "Click an element on the page",
    inputSchema: object({ selector: str("CSS selector for element to click") }),
  },
  {
    name: "puppeteer-puppeteer_fill",
    description: "Fill out an input field",
    inputSchema: object({ selector: str("CSS selector for input field"), value: str("Value to fill") }),
  },
  {
    name: "puppeteer-puppeteer_evaluate",
    description: "Execute JavaScript in the browser console",
    inputSchema: object({ script: str("JavaScript code to execute") }),
  },
];

export const sqliteTools: LabelledTool[] = [
  { name: "sqlite-read_query", description: "Execute a SELECT query on the SQLite database", inputSchema: object({ query: str("SELECT SQL query to execute") }) },
  { name: "sqlite-write_query", description: "Execute an INSERT, UPDATE, or DELETE query on the SQLite database", inputSchema: object({ query: str("SQL query to execute") }) },
  { name: "sqlite-create_table", description: "Create a new table in the SQLite database", inputSchema: object({ query: str("CREATE TABLE SQL statement") }) },
  { name: "sqlite-list_tables", description: "List all tables in the SQLite database", inputSchema: object({}) },
  { name: "sqlite-describe_table", description: "Get the schema information for a specific table", inputSchema: object({ table_name: str("Name of the table to describe") }) },
  {
    name: "sqlite-append_insight",
    description: "Add a business insight to the memo",
    inputSchema: object({ insight: str("Business insight discovered from data analysis") }),
  },
];

export const gitTools: LabelledTool[] = [
  { name: "git-git_status", description: "Shows the working tree status", inputSchema: object({ repo_path: str("Path to the Git repository") }) },
  { name: "git-git_diff_unstaged", description: "Shows changes in the working directory that are not yet staged", inputSchema: object({ repo_path: str("Path to the Git repository"), context_lines: int("Lines of context") }, ["repo_path"]) },
  { name: "git-git_diff_staged", description: "Shows changes that are staged for commit", inputSchema: object({ repo_path: str("Path to the Git repository"), context_lines: int("Lines of context") }, ["repo_path"]) },
  { name: "git-git_diff", description: "Shows differences between branches or commits", inputSchema: object({ repo_path: str("Path to the Git repository"), target: str("Target branch or commit") }) },
  { name: "git-git_commit", description: "Records changes to the repository", inputSchema: object({ repo_path: str("Path to the Git repository"), message: str("Commit message") }) },
  { name: "git-git_add", description: "Adds file contents to the staging area", inputSchema: object({ repo_path: str("Path to the Git repository"), files: list(str("File path")) }) },
  { name: "git-git_reset", description: "Unstages all staged changes", inputSchema: object({ repo_path: str("Path to the Git repository") }) },
  { name: "git-git_log", description: "Shows the commit logs", inputSchema: object({ repo_path: str("Path to the Git repository"), max_count: int("Maximum number of commits") }, ["repo_path"]) },
  { name: "git-git_create_branch", description: "Creates a new branch from an optional base branch", inputSchema: object({ repo_path: str("Path to the Git repository"), branch_name: str("Name of the new branch"), base_branch: str("Starting point") }, ["repo_path", "branch_name"]) },
  { name: "git-git_checkout", description: "Switches branches", inputSchema: object({ repo_path: str("Path to the Git repository"), branch_name: str("Branch to switch to") }) },
  { name: "git-git_show", description: "Shows the contents of a commit", inputSchema: object({ repo_path: str("Path to the Git repository"), revision: str("Commit hash or ref") }) },
  { name: "git-git_branch", description: "List Git branches", inputSchema: object({ repo_path: str("Path to the Git repository"), branch_type: oneOf(["local", "remote", "all"], "Which branches to list") }) },
];
