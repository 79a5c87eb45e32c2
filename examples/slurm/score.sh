#!/bin/bash
#SBATCH --job-name=rubrica-score
#SBATCH --array=0-3
#SBATCH --cpus-per-task=8
#SBATCH --requeue
# Each task scores its shard of the rollouts (--shard auto reads SLURM_ARRAY_TASK_ID); a task
# requeued after preemption, a node failure or `scontrol requeue` resumes its own shard.
# JUDGE_URL: the judge's OpenAI-compatible base URL. CACHE: one answer cache for all tasks
# (redis://host:6379/0 across nodes, or one SQLite file on one node); unset, each task keeps
# its own SQLite file (SQLite locking over NFS is unreliable).
rubrica score --rubrics rubrics.jsonl --in rollouts.jsonl \
  --out "out/scores.${SLURM_ARRAY_TASK_ID}.jsonl" --shard auto \
  --judge vllm:Qwen/Qwen3-VL-8B-Instruct --judge-base-url "$JUDGE_URL" \
  --cache "${CACHE:-out/cache.${SLURM_ARRAY_TASK_ID}.sqlite}"
