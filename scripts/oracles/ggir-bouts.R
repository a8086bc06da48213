# Oracle for EnergyLab's bouts (Sources/Signals/Bouts.swift): runs GGIR's own
# bout function on epoch patterns and prints which epochs are bout time.
#
# GGIR's code is not part of EnergyLab: pass the path of g.getbout.R from a
# GGIR 3 source tree (R/g.getbout.R). Needs R and zoo (Debian: r-base-core,
# r-cran-zoo).
#
#   Rscript scripts/oracles/ggir-bouts.R PATH/TO/g.getbout.R WS3 BOUT_MIN SHARE PATTERN...
#
# PATTERN: runs as VALUExCOUNT joined by commas, 1 meeting the criterion
# (e.g. 0x20,1x8,0x20). Prints, per pattern, the bout epochs in all and the
# marked runs as first-last (1-based).
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(zoo))
source(args[1])
ws3 <- as.numeric(args[2])
boutmin <- as.numeric(args[3])
share <- as.numeric(args[4])
for (pattern in args[-(1:4)]) {
  x <- c()
  for (run in strsplit(pattern, ",")[[1]]) {
    parts <- as.numeric(strsplit(run, "x")[[1]])
    x <- c(x, rep(parts[1], parts[2]))
  }
  out <- g.getbout(x = x, boutduration = boutmin * (60 / ws3), boutcriter = share, ws3 = ws3)
  marked <- which(out == 1)
  runs <- split(marked, cumsum(c(1, diff(marked) != 1)))
  text <- if (length(marked) == 0) "none" else
    paste(sapply(runs, function(r) paste0(min(r), "-", max(r))), collapse = " ")
  cat(pattern, "ws3", ws3, "bout", boutmin, "share", share, ":", length(marked), "epochs;", text, "\n")
}
