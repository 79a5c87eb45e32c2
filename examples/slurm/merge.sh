#!/bin/bash
#SBATCH --job-name=rubrica-merge
# Joins the four shard outputs into the file one process would have written. Submitted with
# --dependency=afterok:<array job>, it runs once every task has succeeded; it refuses (exit 2)
# a shard that is missing or unfinished.
rubrica merge --out out/scores.jsonl out/scores.{0,1,2,3}.jsonl
