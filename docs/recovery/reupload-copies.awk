# Re-upload items stored per distinct (sender, message, requester) in a --trace protocol log:
# a unicast upload ("Dx upload LABELS to Dy") of normal messages is a re-upload.
$3 == "upload" && $5 == "to" && $6 ~ /^D[0-9]+$/ {
  n = split($4, a, ",")
  for (i = 1; i <= n; i++) if (a[i] ~ /^(update|delete)#/) {
    items++; key = $2 " " a[i] " " $6
    if (!(key in seen)) { seen[key] = 1; distinct++ }
  }
}
END { if (distinct == 0) print "0 re-upload items"; else printf "%d re-upload items, %d distinct (sender, message, requester), %.2f per triple\n", items, distinct, items / distinct }
