import { int, list, type LabelledTool, object, oneOf, str } from "./labelled-tool.js";

const owner = str("Repository owner (username or organization)");
const repo = str("Repository name");

// The GitHub MCP server's common tools, named `github-<tool>` by the mcp-client extension (10 MC-10).
export const githubTools: LabelledTool[] = [
  {
    name: "github-create_issue",
    description: "Create a new issue in a GitHub repository",
    inputSchema: object({ owner, repo, title: str("Issue title"), body: str("Issue body content"), labels: list(str("Label")), assignees: list(str("Username")) }, ["owner", "repo", "title"]),
  },
  {
    name: "github-get_issue",
    description: "Get details of a specific issue in a GitHub repository.",
    inputSchema: object({ owner, repo, issue_number: int("The number of the issue") }),
  },
  {
    name: "github-list_issues",
    description: "List issues in a GitHub repository with filtering options",
    inputSchema: object({ owner, repo, state: oneOf(["open", "closed", "all"], "Filter by state"), labels: list(str("Label")), page: int("Page number") }, ["owner", "repo"]),
  },
  {
    name: "github-update_issue",
    description: "Update an existing issue in a GitHub repository",
    inputSchema: object({ owner, repo, issue_number: int("Issue number to update"), title: str("New title"), body: str("New description"), state: oneOf(["open", "closed"], "New state") }, ["owner", "repo", "issue_number"]),
  },
  {
    name: "github-add_issue_comment",
    description: "Add a comment to a specific issue in a GitHub repository.",
    inputSchema: object({ owner, repo, issue_number: int("Issue number to comment on"), body: str("Comment content") }),
  },
  {
    name: "github-search_repositories",
    description: "Search for GitHub repositories",
    inputSchema: object({ query: str("Search query (see GitHub search syntax)"), page: int("Page number for pagination"), perPage: int("Number of results per page") }, ["query"]),
  },
  {
    name: "github-search_code",
    description: "Search for code across GitHub repositories",
    inputSchema: object({ q: str("Search query using GitHub code search syntax"), page: int("Page number"), per_page: int("Results per page") }, ["q"]),
  },
  {
    name: "github-get_file_contents",
    description: "Get the contents of a file or directory from a GitHub repository",
    inputSchema: object({ owner, repo, path: str("Path to the file or directory"), branch: str("Branch to get contents from") }, ["owner", "repo", "path"]),
  },
  {
    name: "github-create_or_update_file",
    description: "Create or update a single file in a GitHub repository",
    inputSchema: object({ owner, repo, path: str("Path where to create/update the file"), content: str("Content of the file"), message: str("Commit message"), branch: str("Branch to create/update the file in"), sha: str("SHA of the file being replaced") }, ["owner", "repo", "path", "content", "message", "branch"]),
  },
  {
    name: "github-create_pull_request",
    description: "Create a new pull request in a GitHub repository",
    inputSchema: object({ owner, repo, title: str("Pull request title"), head: str("The name of the branch where your changes are implemented"), base: str("The name of the branch you want the changes pulled into"), body: str("Pull request body/description") }, ["owner", "repo", "title", "head", "base"]),
  },
  {
    name: "github-merge_pull_request",
    description: "Merge a pull request",
    inputSchema: object({ owner, repo, pull_number: int("Pull request number"), merge_method: oneOf(["merge", "squash", "rebase"], "Merge method") }, ["owner", "repo", "pull_number"]),
  },
  {
    name: "github-list_commits",
    description: "Get list of commits of a branch in a GitHub repository",
    inputSchema: object({ owner, repo, sha: str("Branch name or commit SHA"), page: int("Page number") }, ["owner", "repo"]),
  },
  {
    name: "github-fork_repository",
    description: "Fork a GitHub repository to your account or specified organization",
    inputSchema: object({ owner, repo, organization: str("Optional: organization to fork to") }, ["owner", "repo"]),
  },
  {
    name: "github-create_branch",
    description: "Create a new branch in a GitHub repository",
    inputSchema: object({ owner, repo, branch: str("Name for the new branch"), from_branch: str("Optional: source branch to create from") }, ["owner", "repo", "branch"]),
  },
];
