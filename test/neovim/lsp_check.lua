-- Drives Neovim's built-in LSP client against dist/server.js on a fixture and writes what it got
-- as JSON. Works with Neovim 0.7 and later. Environment: PD_SERVER, PD_FIXTURE, PD_OUT.
local server = os.getenv('PD_SERVER')
local fixture = os.getenv('PD_FIXTURE')
local out = os.getenv('PD_OUT')
local result = { errors = {} }

local function finish()
  local file = io.open(out, 'w')
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'paper-digest'
  local published = false
  local client_id = vim.lsp.start_client({
    name = 'paper-digest',
    cmd = { 'node', server, '--stdio' },
    root_dir = vim.fn.fnamemodify(fixture, ':h'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, params, ctx, config)
        vim.lsp.diagnostic.on_publish_diagnostics(e, params, ctx, config)
        if #params.diagnostics > 0 then
          published = true
        end
      end,
    },
  })
  assert(client_id, 'the client did not start')
  vim.lsp.buf_attach_client(bufnr, client_id)
  assert(vim.wait(20000, function()
    local client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end, 50), 'the server did not initialize')
  result.serverName = vim.lsp.get_client_by_id(client_id).name

  local symbols = vim.lsp.buf_request_sync(bufnr, 'textDocument/documentSymbol', { textDocument = vim.lsp.util.make_text_document_params(bufnr) }, 20000)
  result.symbols = symbols and symbols[client_id] and symbols[client_id].result or vim.NIL

  -- Hover the first category code of the first paper (line 11, zero-based 10).
  local line = vim.api.nvim_buf_get_lines(bufnr, 10, 11, false)[1]
  local col = vim.fn.byteidx(line, vim.fn.strchars(line) - 5)
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    position = { line = 10, character = vim.fn.strchars(line) - 3 },
  }, 20000)
  result.hoverCol = col
  result.hover = hover and hover[client_id] and hover[client_id].result or vim.NIL

  vim.wait(20000, function() return published end, 50)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, message = d.message, source = d.source, code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or vim.NIL })
  end

  -- Completion on the 机构 line of the first paper (zero-based line 8), typed as `机构 * Zhe`: the
  -- institution comes from another digest of the folder, once the server has scanned it.
  do
    vim.api.nvim_buf_set_lines(bufnr, 8, 9, false, { '机构 * Zhe' })
    local labels = {}
    vim.wait(20000, function()
      local answer = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', {
        textDocument = vim.lsp.util.make_text_document_params(bufnr),
        position = { line = 8, character = vim.fn.strchars('机构 * Zhe') },
      }, 5000)
      local list = answer and answer[client_id] and answer[client_id].result
      local items = list and (list.items or list) or {}
      labels = {}
      for _, item in ipairs(items) do
        table.insert(labels, { label = item.label, newText = item.textEdit and item.textEdit.newText or vim.NIL })
      end
      return #labels > 0
    end, 200)
    result.completion = labels
  end
end)
if not ok then
  table.insert(result.errors, tostring(err))
end
finish()
