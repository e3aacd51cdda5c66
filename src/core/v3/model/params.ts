/**
 * IOTA 2.0 protocol parameters (TIP-49), as iota-core serves them in /api/core/v3/info
 * `protocolParameters[].parameters`.
 */
export interface StorageScoreParametersV3 {
  storageCost: bigint;
  factorData: number;
  offsetOutputOverhead: bigint;
  offsetEd25519BlockIssuerKey: bigint;
  offsetStakingFeature: bigint;
  offsetDelegation: bigint;
}

export interface WorkScoreParametersV3 {
  dataByte: number;
  block: number;
  input: number;
  contextInput: number;
  output: number;
  nativeToken: number;
  staking: number;
  blockIssuer: number;
  allotment: number;
  signatureEd25519: number;
}

export interface ManaParametersV3 {
  bitsCount: number;
  generationRate: number;
  generationRateExponent: number;
  /** decayFactors[i] = decay factor for i+1 epochs, scaled by 2^decayFactorsExponent. */
  decayFactors: number[];
  decayFactorsExponent: number;
  decayFactorEpochsSum: number;
  decayFactorEpochsSumExponent: number;
  annualDecayFactorPercentage: number;
}

export interface ProtocolParametersV3 {
  type: 0;
  version: number;
  networkName: string;
  bech32Hrp: string;
  storageScoreParameters: StorageScoreParametersV3;
  workScoreParameters: WorkScoreParametersV3;
  manaParameters: ManaParametersV3;
  tokenSupply: bigint;
  genesisSlot: number;
  /** Seconds since the Unix epoch (signed in the Go type; a decimal string in JSON). */
  genesisUnixTimestamp: bigint;
  slotDurationInSeconds: number;
  slotsPerEpochExponent: number;
  stakingUnbondingPeriod: number;
  validationBlocksPerSlot: number;
  punishmentEpochs: number;
  livenessThresholdLowerBound: number;
  livenessThresholdUpperBound: number;
  minCommittableAge: number;
  maxCommittableAge: number;
  epochNearingThreshold: number;
  congestionControlParameters: {
    minReferenceManaCost: bigint;
    increase: bigint;
    decrease: bigint;
    increaseThreshold: number;
    decreaseThreshold: number;
    schedulerRate: number;
    maxBufferSize: number;
    maxValidationBufferSize: number;
  };
  versionSignalingParameters: { windowSize: number; windowTargetRatio: number; activationOffset: number };
  rewardsParameters: {
    profitMarginExponent: number;
    bootstrappingDuration: number;
    rewardToGenerationRatio: number;
    initialTargetRewardsRate: bigint;
    finalTargetRewardsRate: bigint;
    poolCoefficientExponent: number;
    retentionPeriod: number;
  };
  targetCommitteeSize: number;
  chainSwitchingThreshold: number;
}

/**
 * The subset of the parameters the codec, IDs, work score and mana need. A full ProtocolParametersV3 satisfies it;
 * tests and callers holding only the vectors' summary can pass this.
 */
export interface TimeParametersV3 {
  genesisSlot: number;
  genesisUnixTimestamp: bigint | number;
  slotDurationInSeconds: number;
  slotsPerEpochExponent: number;
}
