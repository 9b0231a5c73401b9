#!/bin/sh
# Measures what a disruption does to the example's target, from inside it (its own cgroup, cgroup v1 or v2):
#   measure.sh cpu      CPU used over 5 s, in percent of one CPU
#   measure.sh memory   memory in use against the limit
#   measure.sh disk     a 4 MiB direct write to /data and its speed
set -eu
exec kubectl -n chaos-demo exec deploy/web -- sh -c '
cg=/sys/fs/cgroup
case "$1" in
cpu)
  if [ -f $cg/cpu.stat ]; then read_ns() { echo $(( $(sed -n "s/^usage_usec //p" $cg/cpu.stat) * 1000 )); }
  else read_ns() { cat $cg/cpuacct/cpuacct.usage; }; fi
  a=$(read_ns); sleep 5; b=$(read_ns)
  echo "cpu: $(( (b - a) / 50000000 ))% of one CPU over 5 s" ;;
memory)
  if [ -f $cg/memory.current ]; then used=$(cat $cg/memory.current); limit=$(cat $cg/memory.max)
  else used=$(cat $cg/memory/memory.usage_in_bytes); limit=$(cat $cg/memory/memory.limit_in_bytes); fi
  echo "memory: $(( used / 1048576 )) MiB of a $(( limit / 1048576 )) MiB limit ($(( used * 100 / limit ))%)" ;;
disk)
  dd if=/dev/zero of=/data/probe bs=64k count=64 oflag=direct 2>&1 | tail -n 1
  rm -f /data/probe ;;
esac' measure "$1"
