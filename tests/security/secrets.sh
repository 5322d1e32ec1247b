#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The secret-leak corpus, end to end through the CLI: configs with a distinct sentinel in
# every secret field of the schema (zeroclaw-config.md §5.3: api_key and extra_headers in
# every one of the 76 model families, the qwen/minimax/gemini OAuth fields, every TTS and
# transcription family, MCP server env and headers), each written in every spelling TOML
# allows (plain, quoted keys with literal strings, dotted keys, inline tables, unicode-escaped
# keys and values, multi-line strings). Each is exported through `clawport export`, with and
# without --json; every bundle file, the report and the JSON are searched for every sentinel
# (zero hits), and every sentinel's path must be in required_secrets (manifest and JSON).
# Every family is written in one spelling (in turn); the OAuth families in all of them.
# Usage: secrets.sh <clawport binary> <repository root>
. "$(dirname "$0")/../cli/lib.sh"

models="openai azure anthropic moonshot qwen glm minimax zai doubao yi hunyuan qianfan
baichuan openrouter ollama gemini gemini_cli grok_cli bedrock telnyx together fireworks groq
mistral deepseek atomic_chat cohere perplexity xai cerebras sambanova hyperbolic deepinfra
huggingface ai21 reka baseten nscale anyscale nebius friendli stepfun aihubmix siliconflow
astrai avian deepmyst venice nearai novita nvidia vercel cloudflare atlascloud ovh copilot
lmstudio llamacpp sglang vllm osaurus litellm lepton manifest morph github_models upstage
featherless arcee lambda_ai inception synthetic opencode kilocli kilo custom"
tts=(openai elevenlabs google edge piper)
stt=(groq openai deepgram assemblyai google local_whisper)
spellings="plain quoted dotted inline escaped multiline"

# esc <text>: the text with every character as a TOML \uXXXX escape (ASCII only).
esc() { local s=$1 i out=; for ((i = 0; i < ${#s}; i++)); do printf -v c '\\u%04X' "'${s:i:1}"; out+=$c; done; printf '%s' "$out"; }

# kv <spelling> <key> <value>: one key/value pair in the spelling's form (inside a table).
kv() {
  case $1 in
    quoted) printf '"%s" = '"'"'%s'"'"'\n' "$2" "$3" ;;
    escaped) printf '"%s" = "%s"\n' "$(esc "$2")" "$(esc "$3")" ;;
    multiline) printf '%s = """\\\n%s"""\n' "$2" "$3" ;;
    *) printf '%s = "%s"\n' "$2" "$3" ;;
  esac
}

# entry <spelling> <table path> <tag> <key=value ...>: a provider entry in the spelling's form.
# (inline: a value starting with `{` is written as it stands, an inline table.)
entry() {
  local sp=$1 path=$2 tag=$3; shift 3
  local kvs=("$@") k v
  case $sp in
    dotted)
      for k in "${kvs[@]}"; do printf '%s.%s = "%s"\n' "$path" "${k%%=*}" "${k#*=}"; done >>"$TMP/root" ;;
    inline)
      local parent=${path%.*} leaf=${path##*.} body=
      for k in "${kvs[@]}"; do
        v=${k#*=}
        if [ "${v:0:1}" = "{" ]; then body+="${k%%=*} = $v, "; else body+="${k%%=*} = \"$v\", "; fi
      done
      printf '[%s]\n%s = { %s }\n' "$parent" "$leaf" "${body%, }" ;;
    quoted)
      local q=; IFS=. read -ra parts <<<"$path"; for k in "${parts[@]}"; do q+="\"$k\"."; done
      printf '[%s]\n' "${q%.}"
      for k in "${kvs[@]}"; do kv quoted "${k%%=*}" "${k#*=}"; done ;;
    *)
      printf '[%s]\n' "$path"
      for k in "${kvs[@]}"; do kv "$sp" "${k%%=*}" "${k#*=}"; done ;;
  esac
}

# Issue 30: the agent's memory and its user's profile, each holding a memory sentinel, sit in
# the workspace every config exports (the install root is $TMP); no output may show them.
MW=$TMP/agents/a/workspace
mkdir -p "$MW/memory"
printf 'notes\n' >"$MW/notes.md"
printf -- '- **pref**: SNTL-memory-md\n' >"$MW/MEMORY.md"
printf 'SNTL-memory-lower\n' >"$MW/memory.md"
printf 'SNTL-memory-user\n' >"$MW/USER.md"
printf 'SNTL-memory-store\n' >"$MW/memory/2026-12-01.md"
printf 'SNTL-memory-snapshot\n' >"$MW/MEMORY_SNAPSHOT.md"

total=0
check_export() {  # <name>: exports $TMP/<name>.toml twice and searches everything
  local name=$1 cfg=$TMP/$name.toml
  expect_status 0 "$CLAWPORT" export a --config "$cfg" --out "$TMP/$name.b1" --no-sync
  cp "$TMP/out" "$TMP/$name.report"; cat "$TMP/err" >>"$TMP/$name.report"
  expect_status 0 "$CLAWPORT" export a --config "$cfg" --out "$TMP/$name.b2" --no-sync --json
  cp "$TMP/out" "$TMP/$name.json"; cat "$TMP/err" >>"$TMP/$name.report"
  local hits
  hits=$(grep -rl "SNTL" "$TMP/$name.b1" "$TMP/$name.b2" "$TMP/$name.report" "$TMP/$name.json" || true)
  if [ -n "$hits" ]; then
    echo "FAIL: $name: a sentinel reached: $hits"; grep -rn "SNTL" $hits | head -5
    failures=$((failures + 1))
  fi
  local p
  while read -r p; do
    [ -n "$p" ] || continue
    total=$((total + 1))
    grep -qF "\"$p\"" "$TMP/$name.b1/zeroclaw-agent.toml" ||
      { echo "FAIL: $name: $p not in the manifest's required_secrets"; failures=$((failures + 1)); }
    grep -qF "\"$p\"" "$TMP/$name.json" ||
      { echo "FAIL: $name: $p not in the JSON's required_secrets"; failures=$((failures + 1)); }
  done <"$TMP/$name.paths"
  rm -rf "$TMP/$name.b1" "$TMP/$name.b2"
}

# Every family in one spelling (in turn), every spelling on the families with OAuth fields.
pairs=() n=0
read -ra sps <<<"$spellings"
for f in $models; do
  pairs+=("${sps[n % ${#sps[@]}]}:$f")
  n=$((n + 1))
  case $f in qwen | minimax | gemini) for sp in $spellings; do pairs+=("$sp:$f"); done ;; esac
done
i=0
for pair in "${pairs[@]}"; do
  sp=${pair%%:*} f=${pair#*:}
  [ -e "$TMP/$sp-$f.toml" ] && continue
  {
    i=$((i + 1))
    t=${tts[i % 5]} s=${stt[i % 6]}
    name=$sp-$f
    : >"$TMP/root"
    extra=() wd=()
    [ "$f" = grok_cli ] && wd=("working_directory=/srv/grok")
    case $f in
      qwen | minimax) extra=("oauth_refresh_token=SNTL-$name-refresh") ;;
      gemini) extra=("oauth_client_id=SNTL-$name-cid" "oauth_client_secret=SNTL-$name-csec") ;;
    esac
    body=$(
      echo '[agents.a]'
      echo 'risk_profile = "r"'
      echo "model_provider = \"$f.m\""
      echo "tts_provider = \"$t.v\""
      echo "transcription_provider = \"$s.w\""
      echo 'mcp_bundles = ["b"]'
      echo '[risk_profiles.r]'
      echo '[mcp_bundles.b]'
      echo 'servers = ["srv", "web"]'
      echo '[[mcp.servers]]'
      echo 'name = "srv"'
      echo 'command = "run"'
      if [ "$sp" = inline ]; then
        echo "env = { TOKEN = \"SNTL-$name-env1\", HARMLESS = \"SNTL-$name-env2\" }"
      else
        echo '[mcp.servers.env]'
        kv "$sp" TOKEN "SNTL-$name-env1"
        kv "$sp" HARMLESS "SNTL-$name-env2"
      fi
      echo '[[mcp.servers]]'
      echo 'name = "web"'
      echo 'transport = "http"'
      echo 'url = "https://example.com/mcp"'
      if [ "$sp" = inline ]; then
        echo "headers = { Authorization = \"SNTL-$name-hdr1\", X-Api-Key = \"SNTL-$name-hdr2\" }"
      else
        echo '[mcp.servers.headers]'
        kv "$sp" Authorization "SNTL-$name-hdr1"
        kv "$sp" X-Api-Key "SNTL-$name-hdr2"
      fi
      if [ "$sp" = inline ]; then
        entry "$sp" "providers.models.$f.m" m "api_key=SNTL-$name-key" "model=x" "${extra[@]}" "${wd[@]}" \
          "extra_headers={ X-Extra = \"SNTL-$name-xh\" }"
      else
        entry "$sp" "providers.models.$f.m" m "api_key=SNTL-$name-key" "model=x" "${extra[@]}" "${wd[@]}"
        entry "$sp" "providers.models.$f.m.extra_headers" h "X-Extra=SNTL-$name-xh"
      fi
      entry "$sp" "providers.tts.$t.v" t "api_key=SNTL-$name-tts"
      if [ "$s" = local_whisper ]; then
        entry "$sp" "providers.transcription.$s.w" w "uri=http://10.0.0.1:8001/v1" \
          "bearer_token=SNTL-$name-bearer"
      else
        entry "$sp" "providers.transcription.$s.w" w "api_key=SNTL-$name-stt"
      fi
    )
    { echo 'schema_version = 3'; cat "$TMP/root"; echo "$body"; } >"$TMP/$name.toml"
    {
      echo "mcp.servers.srv.env.HARMLESS"
      echo "mcp.servers.srv.env.TOKEN"
      echo "mcp.servers.web.headers.Authorization"
      echo "mcp.servers.web.headers.X-Api-Key"
      echo "providers.models.$f.m.api_key"
      echo "providers.models.$f.m.extra_headers.X-Extra"
      for e in "${extra[@]}"; do echo "providers.models.$f.m.${e%%=*}"; done
      echo "providers.tts.$t.v.api_key"
      if [ "$s" = local_whisper ]; then echo "providers.transcription.$s.w.bearer_token"
      else echo "providers.transcription.$s.w.api_key"; fi
    } >"$TMP/$name.paths"
    check_export "$name"
  }
done
# The memory sentinel through convert too: a bundle of the corpus to a Claw package.
expect_status 0 "$CLAWPORT" export a --config "$TMP/plain-openai.toml" --out "$TMP/mem.b" --no-sync
"$CLAWPORT" convert "$TMP/mem.b" --to claw --out "$TMP/mem.claw" --allow-narrowing >"$TMP/mem.log" 2>&1 || true
hits=$(grep -rl "SNTL-memory" "$TMP/mem.b" "$TMP/mem.log" "$TMP/mem.claw" 2>/dev/null || true)
[ -z "$hits" ] || { echo "FAIL: the memory sentinel reached: $hits"; failures=$((failures + 1)); }
echo "checked $total secret paths in $i configs"
finish
